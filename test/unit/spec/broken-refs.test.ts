/**
 * Broken `$ref`s of a spec in several files (issue 24): each is reported against the file that
 * holds it and the pointer where it sits, naming the target it asked for, and all of them in one
 * run (capped, with a count), not only the first the ref parser met.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../../src/generator/spec/load-spec.js";
import { resolvePointer } from "../../../src/model/pointer.js";
import { failure } from "../../helpers/spec-loading.js";

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "omb-broken-refs-"));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Writes the files of one spec into a folder of its own; returns the root document's path. */
function writeSpec(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return join(dir, "openapi.yaml");
}

/** An operation per entry, each answering with the schema `$ref`. */
function rootDocument(refs: Record<string, string>, extra = ""): string {
  const paths = Object.entries(refs)
    .map(
      ([name, ref]) =>
        `  /${name}:\n    get:\n      operationId: get_${name}\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema:\n                $ref: "${ref}"\n`,
    )
    .join("");
  return `openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths:\n${paths}${extra}`;
}

const schemaAt = (name: string) => `/paths/~1${name}/get/responses/200/content/application~1json/schema`;

describe("broken cross-file refs", () => {
  it("names the file holding each broken ref, its pointer and target: all of them in one run", async () => {
    const spec = writeSpec("several", {
      "openapi.yaml": rootDocument({
        pets: "schemas/pet.yaml#/Pet",
        owners: "schemas/missing.yaml#/Owner",
        toys: "schemas/pet.yaml#/Toy",
      }),
      "schemas/pet.yaml": [
        "Pet:",
        "  type: object",
        "  properties:",
        "    tag:",
        '      $ref: "tag.yaml#/Tag"',
        "    food:",
        '      $ref: "food.yaml"',
        "    friend:",
        '      $ref: "#/Nobody"',
        "",
      ].join("\n"),
      "schemas/tag.yaml": "Tog:\n  type: string\n",
    });
    const dir = join(root, "several");
    const diagnostics = await failure(spec);
    const found = diagnostics.map((d) => ({ file: d.file, pointer: d.pointer, message: d.message }));
    expect(found).toEqual([
      {
        file: spec,
        pointer: schemaAt("owners"),
        message: `$ref "schemas/missing.yaml#/Owner": file not found: ${join(dir, "schemas/missing.yaml")}`,
      },
      {
        file: spec,
        pointer: schemaAt("toys"),
        message: `$ref "schemas/pet.yaml#/Toy": pointer #/Toy does not exist in ${join(dir, "schemas/pet.yaml")}`,
      },
      {
        file: join(dir, "schemas/pet.yaml"),
        pointer: "/Pet/properties/food",
        message: `$ref "food.yaml": file not found: ${join(dir, "schemas/food.yaml")}`,
      },
      {
        file: join(dir, "schemas/pet.yaml"),
        pointer: "/Pet/properties/friend",
        message: '$ref "#/Nobody" points to nothing in this document',
      },
      {
        file: join(dir, "schemas/pet.yaml"),
        pointer: "/Pet/properties/tag",
        message: `$ref "tag.yaml#/Tag": pointer #/Tag does not exist in ${join(dir, "schemas/tag.yaml")}`,
      },
    ]);
    for (const d of diagnostics) expect(d).toMatchObject({ code: "OMB_REF_UNRESOLVED", severity: "error" });
    // A near name is offered, and a missing file says where relative refs are read from.
    expect(diagnostics.find((d) => d.pointer === "/Pet/properties/tag")?.hint).toBe("did you mean #/Tog?");
    expect(diagnostics.find((d) => d.pointer === "/Pet/properties/food")?.hint).toMatch(
      /relative \$ref is read from the folder of the file that holds it/,
    );
  });

  it("a local ref of the root broken beside external refs is reported with them", async () => {
    const spec = writeSpec("local-too", {
      "openapi.yaml": rootDocument({ a: "pet.yaml#/Pet", b: "#/components/schemas/Nope" }),
      "pet.yaml": "Pet: {type: object}\nToy: {$ref: '#/Gone'}\n",
    });
    const diagnostics = await failure(spec, { strict: true });
    expect(diagnostics.map((d) => [d.file, d.pointer, d.message])).toEqual([
      [spec, schemaAt("b"), '$ref "#/components/schemas/Nope" points to nothing in this document'],
    ]);
  });

  it("a local ref of the root to nothing that no operation reaches is left out, as in a one-file spec", async () => {
    const spec = writeSpec("local-unreached", {
      "openapi.yaml": rootDocument(
        { a: "pet.yaml#/Pet" },
        "components:\n  schemas:\n    Old: {$ref: '#/components/schemas/Gone'}\n",
      ),
      "pet.yaml": "Pet: {type: object}\n",
    });
    const loaded = await loadSpec(spec);
    expect(loaded.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["OMB_REF_LEFT_UNRESOLVED", "/components/schemas/Old"],
    ]);
    const schema = resolvePointer(
      loaded.document,
      "/paths/~1a/get/responses/200/content/application~1json/schema",
    );
    expect(schema).toEqual({ $ref: "#/components/schemas/Pet" });
    await expect(loadSpec(spec, { strict: true })).rejects.toThrow(/points to nothing in this document/);
  });

  it("caps the list at 50 and counts the rest", async () => {
    const refs = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`p${i}`, `parts.yaml#/S${i}`]));
    const spec = writeSpec("many", {
      "openapi.yaml": rootDocument(refs),
      "parts.yaml": "Other: {type: string}\n",
    });
    const diagnostics = await failure(spec);
    expect(diagnostics).toHaveLength(51);
    expect(diagnostics.slice(0, 50).every((d) => d.file === spec && d.pointer?.startsWith("/paths/"))).toBe(
      true,
    );
    expect(diagnostics[50]).toMatchObject({
      code: "OMB_REF_UNRESOLVED",
      message: "... and 10 more problems like these",
    });
  });

  it("a file only a part nothing uses names still fails the load, as before", async () => {
    const spec = writeSpec("unused-part", {
      "openapi.yaml": rootDocument({ a: "pet.yaml#/Pet" }),
      "pet.yaml": "Pet: {type: object}\nUnused: {$ref: 'gone.yaml'}\n",
    });
    const diagnostics = await failure(spec);
    expect(diagnostics.map((d) => [d.file, d.pointer])).toEqual([
      [join(root, "unused-part/pet.yaml"), "/Unused"],
    ]);
  });

  it("a spec whose refs all resolve still loads", async () => {
    const spec = writeSpec("fine", {
      "openapi.yaml": rootDocument({ a: "schemas/pet.yaml#/Pet" }),
      "schemas/pet.yaml": "Pet:\n  type: object\n  properties:\n    tag: {$ref: 'tag.yaml#/Tag'}\n",
      "schemas/tag.yaml": "Tag: {type: string}\n",
    });
    const loaded = await loadSpec(spec);
    expect(loaded.diagnostics).toEqual([]);
  });
});
