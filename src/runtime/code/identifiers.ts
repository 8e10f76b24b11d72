/**
 * TypeScript identifiers made from spec names: the type names of generated tool modules and of
 * code mode's signatures, and the module names of a generated project's api.
 */

const RESERVED_WORDS = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally " +
    "for function if import in instanceof new null return super switch this throw true try typeof var void " +
    "while with as implements interface let package private protected public static yield any boolean " +
    "constructor declare get module require number set string symbol type from of async await never " +
    "unknown object undefined arguments eval"
  ).split(" "),
);

/** `get-pet-by-id` → `getPetById`: an identifier, not a reserved word, not in `taken`. */
export function toIdentifier(text: string, taken: Set<string>, pascal = false): string {
  const words = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "");
  let name = words
    .map((word, index) =>
      index === 0 && !pascal
        ? word.charAt(0).toLowerCase() + word.slice(1)
        : word.charAt(0).toUpperCase() + word.slice(1),
    )
    .join("");
  if (name === "") name = pascal ? "Type" : "value";
  if (/^[0-9]/.test(name)) name = `_${name}`;
  if (RESERVED_WORDS.has(name)) name = `${name}_`;
  let unique = name;
  for (let i = 2; taken.has(unique); i++) unique = `${name}${i}`;
  taken.add(unique);
  return unique;
}
