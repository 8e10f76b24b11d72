/** Tool selection on the model: name globs, tags, methods, path globs, read-only, destructive. */
import { describe, expect, it } from "vitest";
import {
  compileGlob,
  describeUnmatched,
  isDestructive,
  selectTools,
  type ToolSelection,
} from "../../../../src/runtime/access/select.js";
import { planSpec, TOY_PATHS } from "../../../e2e/safety-support.js";

const model = planSpec({ servers: [{ url: "https://api.example.test" }], paths: TOY_PATHS });

function names(selection: ToolSelection): string[] {
  return selectTools(model.tools, selection).tools.map((t) => t.name);
}

describe("compileGlob", () => {
  it.each([
    ["get*", "getPet", true, true],
    ["get*", "GETPET", true, true],
    ["get*", "listPets", true, false],
    ["*Pet", "deletePet", true, true],
    ["?etPet", "getPet", true, true],
    ["a.b", "aXb", true, false],
    ["/pets/*", "/pets/{id}", false, true],
    ["/pets/*", "/pets/{id}/photos", false, false],
    ["/pets/**", "/pets/{id}/photos", false, true],
    ["/pets", "/Pets", false, false],
    ["/a+b", "/a+b", false, true],
  ])("%s against %s (name=%s) is %s", (glob, text, name, want) => {
    expect(compileGlob(glob, name)(text)).toBe(want);
  });
});

describe("selectTools", () => {
  it("keeps everything by default, in model order", () => {
    expect(names({})).toEqual(model.tools.map((t) => t.name));
    expect(names({}).length).toBe(10);
  });

  it("includes and excludes by name glob (exclusion wins)", () => {
    expect(names({ includeTools: ["get*", "list*"] })).toEqual(["listPets", "getPet", "getInventory"]);
    expect(names({ includeTools: ["get*"], excludeTools: ["getInv*"] })).toEqual(["getPet"]);
    expect(names({ excludeTools: ["*Pet*"] })).toEqual(["getInventory", "inventoryOptions", "deleteUser"]);
  });

  it("includes and excludes by tag, case-insensitively", () => {
    expect(names({ includeTags: ["STORE"] })).toEqual(["getInventory", "inventoryOptions"]);
    expect(names({ includeTags: ["pets"], excludeTags: ["admin"] })).toEqual([
      "listPets",
      "createPet",
      "getPet",
      "replacePet",
      "headPet",
      "updatePet",
    ]);
  });

  it("filters by method and by path glob; criteria of different kinds all apply", () => {
    expect(names({ methods: ["DELETE"] })).toEqual(["deletePet", "deleteUser"]);
    expect(names({ paths: ["/pets/*"] })).toEqual([
      "getPet",
      "replacePet",
      "deletePet",
      "headPet",
      "updatePet",
    ]);
    expect(names({ paths: ["/admin/**"] })).toEqual(["deleteUser"]);
    expect(names({ paths: ["/pets/*"], methods: ["get", "head"] })).toEqual(["getPet", "headPet"]);
  });

  it("read-only keeps only GET, HEAD and OPTIONS", () => {
    expect(names({ readOnly: true })).toEqual([
      "listPets",
      "getPet",
      "headPet",
      "getInventory",
      "inventoryOptions",
    ]);
  });

  it("destructive: refuse drops DELETE and everything annotated destructive; allow and confirm keep them", () => {
    const destructive = model.tools.filter(isDestructive).map((t) => t.name);
    expect(destructive).toEqual(["replacePet", "deletePet", "updatePet", "deleteUser"]);
    expect(names({ destructive: "refuse" })).toEqual(
      model.tools.map((t) => t.name).filter((n) => !destructive.includes(n)),
    );
    expect(names({ destructive: "confirm" })).toHaveLength(10);
    expect(names({ destructive: "allow" })).toHaveLength(10);
  });

  it("reports criteria that match no operation, and refuses unknown methods", () => {
    const result = selectTools(model.tools, {
      includeTools: ["nope*", "get*"],
      includeTags: ["ghost"],
      paths: ["/x"],
    });
    expect(result.unmatched).toEqual(["tool nope*", "path /x", "tag ghost"]);
    expect(() => selectTools(model.tools, { methods: ["FETCH"] })).toThrow(/unknown HTTP method "FETCH"/);
    expect(() => selectTools(model.tools, { destructive: "maybe" as never })).toThrow(
      /allow, refuse or confirm/,
    );
  });

  it.each([
    ["a tag one letter off", { includeTags: ["Petz"] }, "tag petz", ['did you mean "Pets"?']],
    ["a tool name one letter off", { includeTools: ["getPett"] }, "tool getPett", ['did you mean "getPet"?']],
    ["a glob (no suggestion)", { includeTools: ["getPett*"] }, "tool getPett*", []],
    ["nothing near", { includeTags: ["invoices"] }, "tag invoices", []],
  ] as [string, ToolSelection, string, string[]][])(
    "says what matched nothing: %s",
    (_what, selection, criterion, hints) => {
      const tagged = model.tools.map((tool) => ({ ...tool, tags: ["Pets"] }));
      const result = selectTools(tagged, selection);
      expect(result.unmatched).toEqual([criterion]);
      const note = describeUnmatched(criterion, result.near);
      expect(note.startsWith(`${criterion} matches no operation of the spec`)).toBe(true);
      for (const hint of hints) expect(note).toContain(hint);
      if (hints.length === 0) expect(note).not.toContain("did you mean");
    },
  );
});
