/**
 * Hostile strings for the search and the name resolvers, one list for the `slow` fuzz test
 * (test/unit/runtime/discovery/search/fuzz.slow.test.ts) and bench/fuzz-search.mjs: named cases
 * that each aimed at one scan (a run of quotes, "my" after "my", combining marks, lone surrogate
 * halves, regex metacharacters, whitespace floods, 4 MiB of text, names at the 128-character
 * cap) and seeded random mixtures of their pieces. Seeded, so a failure names an input that the
 * next run builds again.
 */

const MIB = 1024 * 1024;

/** Pieces the random mixtures are made of: each one a character class some scan treats apart. */
export const HOSTILE_PIECES = [
  "\u201c",
  "\u201d",
  '"',
  "'",
  "`",
  "my ",
  "me ",
  "tell me ",
  "how many ",
  "\u0301",
  "\u0336\u0335\u0334",
  "\ud800",
  "\udfff",
  "\ud83d\ude00",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: regex metacharacters as fuzz input, not a template
  ".*+?^${}()|[]\\",
  "(?:(a+)+)$",
  " ",
  "\t\n\r",
  "\u00a0\u2028\u2029\u3000\ufeff",
  "\u200b\u200d",
  "Titanic ",
  "aB",
  "HTMLPage",
  "a1b2c3d4",
  "{id}",
  "(x)",
  "list ",
  "create ",
  "repos ",
  "issues ",
  "pull request ",
  "the ",
  "\u0000",
  "財務会計",
  "\u202e",
];

/** A small seeded generator (mulberry32): the same seed gives the same inputs on every run. */
export function createRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `text` repeated up to `chars` characters. */
function fill(text, chars) {
  return text.repeat(Math.ceil(chars / text.length)).slice(0, chars);
}

/**
 * The named hostile queries: [label, text]. `names` are real operation names of the model,
 * mutated into names at and around the length cap.
 */
export function namedHostileStrings(names, maxNameChars = 128) {
  const longest = [...names].sort((a, b) => b.length - a.length)[0] ?? "getPet";
  const joined = names.join("");
  const cases = [
    ["empty", ""],
    ["one space", " "],
    ["120 KB of curly opening quotes", fill("\u201c", 120_000)],
    ["4 MiB of curly opening quotes", fill("\u201c", 4 * MIB)],
    ["alternating curly quotes", fill("\u201c\u201d", 200_000)],
    ["a quote before each letter", fill("\u201ca", 200_000)],
    ["'my ' x 25,000", "my ".repeat(25_000)],
    ["'me ' x 25,000", "me ".repeat(25_000)],
    ["'tell me my ' x 10,000", "tell me my ".repeat(10_000)],
    ["'how many ' x 20,000", "how many ".repeat(20_000)],
    ["combining marks on one letter", `a${fill("\u0301", 200_000)}`],
    ["zalgo words", fill("r\u0336e\u0335p\u0334o\u0301 ", 300_000)],
    ["lone high surrogates", fill("\ud800", 200_000)],
    ["lone low surrogates", fill("\udc00", 200_000)],
    ["swapped surrogate pairs", fill("\ude00\ud83d", 200_000)],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: regex metacharacters as fuzz input, not a template
    ["regex metacharacters", fill(".*+?^${}()|[]\\", 200_000)],
    ["nested-quantifier text", fill("(?:(a+)+)$", 200_000)],
    ["a flood of spaces", fill(" ", 4 * MIB)],
    ["a flood of mixed whitespace", fill(" \t\n\r\u00a0\u2028\u3000\ufeff", 1 * MIB)],
    ["zero-width characters", fill("\u200b\u200c\u200d", 1 * MIB)],
    ["4 MiB of one letter", fill("a", 4 * MIB)],
    ["4 MiB of camel case", fill("aB", 4 * MIB)],
    ["capitalised words after letters", fill("x Ab ", 200_000)],
    ["hash-like words", fill("a1b2c3d4 ", 200_000)],
    ["NUL characters", fill("\u0000", 200_000)],
    ["right-to-left overrides", fill("\u202elist repos ", 200_000)],
    ["every operation's name", names.join(" ")],
    ["every operation's name, no spaces", joined],
    ["a name at the cap", fill(longest, maxNameChars)],
    ["a name one over the cap", fill(longest, maxNameChars + 1)],
    ["a name one under the cap", fill(longest, maxNameChars - 1)],
    ["a cap-long name of every operation's letters", joined.slice(0, maxNameChars)],
    ["a cap-long name of one letter", fill("e", maxNameChars)],
    ["a cap-long name of separators", fill("_-.", maxNameChars)],
    ["a cap-long name of combining marks", `a${fill("\u0301", maxNameChars - 1)}`],
    ["a cap-long name of surrogate halves", fill("\ud800", maxNameChars)],
    ["a 4 MiB name holding a real one", `${fill("x", 2 * MIB)}${longest}${fill("x", 2 * MIB)}`],
    ["a 4 MiB name of real names", fill(joined, 4 * MIB)],
    ["the longest name with a typo", `${longest.slice(0, -2)}${longest.at(-1)}${longest.at(-2)}`],
    [
      "a 1,000-character query of distinct real words",
      fill(joined.replace(/([a-z])([A-Z])/g, "$1 $2"), 1_000),
    ],
  ];
  return cases;
}

/** `count` seeded mixtures of the hostile pieces and of `names`, of lengths from 1 to `maxChars`. */
export function randomHostileStrings(seed, count, names, maxChars = 4_000) {
  const random = createRandom(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const out = [];
  for (let i = 0; i < count; i++) {
    // Lengths spread over orders of magnitude: short names and task-long queries alike.
    const length = Math.max(1, Math.floor(maxChars ** random()));
    let text = "";
    while (text.length < length) {
      const roll = random();
      if (roll < 0.6) text += pick(HOSTILE_PIECES).repeat(1 + Math.floor(random() * 20));
      else if (roll < 0.9) text += `${pick(names)} `;
      else text += String.fromCharCode(Math.floor(random() * 0x10000));
    }
    out.push([`random #${i} (seed ${seed})`, text.slice(0, length)]);
  }
  return out;
}

/**
 * An upper bound of the main thread's time in one synchronous call, in ms: the least of its
 * wall time and the process's CPU time (each bounds it from above: wall time counts the moments
 * another process had the core, CPU time counts the collector's helper threads). The least of
 * `runs` calls: the work is deterministic, the noise is not.
 */
export function measureCall(call, runs = 3) {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    call();
    const wall = performance.now() - start;
    const used = process.cpuUsage(cpu);
    best = Math.min(best, wall, (used.user + used.system) / 1000);
  }
  return best;
}

/**
 * Every resolver a client's text reaches, over one model: `api` holds the functions (from src/
 * in the test, dist/ in the bench). Returns [target, label, ms] for each input and target.
 */
export function fuzzResolvers(api, model, inputs, runs = 3) {
  const { createOperationSearch, findClosestOperations, suggestNames, createArgumentValidator } = api;
  const tools = model.tools;
  const names = tools.map((tool) => tool.name);
  const search = createOperationSearch(tools);
  // The tool with the most top-level arguments: its unknown-argument message ranks them all.
  const widest = [...tools].sort(
    (a, b) =>
      Object.keys(b.inputSchema.properties ?? {}).length - Object.keys(a.inputSchema.properties ?? {}).length,
  )[0];
  const validate = createArgumentValidator(widest.inputSchema);
  const tag = tools.find((tool) => tool.tags.length > 0)?.tags[0] ?? "pets";
  const targets = [
    ["search", (text) => search.search(text)],
    ["search, limit 50, tag and method", (text) => search.search(text, { limit: 50, tag, method: "get" })],
    ["search, the text as tag and method", (text) => search.search("list", { tag: text, method: text })],
    ["closest operations (describe, call)", (text) => findClosestOperations(text, tools, search)],
    ["did you mean, over every tool name", (text) => suggestNames(text, names, 3)],
    ["unknown argument of the widest tool", (text) => validate({ [text]: 1 })],
  ];
  const results = [];
  for (const [target, call] of targets) {
    call("warm up");
    for (const [label, text] of inputs) results.push([target, label, measureCall(() => call(text), runs)]);
  }
  return results;
}
