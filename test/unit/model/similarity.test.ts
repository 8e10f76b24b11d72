/** One way to say which names are near a name that is none. */
import { describe, expect, it } from "vitest";
import {
  editDistance,
  MAX_COMPARED_CHARS,
  normaliseName,
  rankClosest,
  suggestNames,
} from "../../../src/model/similarity.js";

describe("editDistance", () => {
  it.each([
    ["getpet", "getpet", undefined, 0],
    ["getpet", "getpets", undefined, 1],
    ["getpet", "gtpet", undefined, 1],
    ["getpet", "getpte", undefined, 1],
    ["nmae", "name", undefined, 1],
    ["getpet", "setpot", undefined, 2],
    ["kitten", "sitting", undefined, 3],
    ["ca", "abc", undefined, 3],
    ["", "abc", undefined, 3],
    ["kitten", "sitting", 3, 3],
    ["kitten", "sitting", 2, 3],
    ["a", "abcdefgh", 2, 3],
    ["", "abc", 5, 3],
    ["abcdefgh", "badcfehg", 4, 4],
    ["abcdefgh", "badcfehg", 3, 4],
  ])("%s → %s within %s: %d", (a, b, limit, want) => {
    expect(editDistance(a, b, limit)).toBe(want);
  });

  it("stops early only when the distance must exceed the limit", () => {
    const words = ["", "a", "ab", "ba", "abc", "acb", "bca", "abcd", "badc", "dcba", "xyz", "aabb"];
    for (const a of words)
      for (const b of words)
        for (const limit of [0, 1, 2, 3]) {
          const full = editDistance(a, b);
          expect(editDistance(a, b, limit), `${a} ${b} ${limit}`).toBe(Math.min(full, limit + 1));
        }
  });
});

describe("normaliseName", () => {
  it.each([
    ["petId", "petid"],
    ["pet_id", "petid"],
    ["PET-ID", "petid"],
    ["x.y z", "xyz"],
    ["Größe", "größe"],
  ])("%s → %s", (given, want) => {
    expect(normaliseName(given)).toBe(want);
  });
});

describe("rankClosest", () => {
  it.each<[string, string[], string[]]>([
    ["petid", ["name", "petId", "status"], ["petId"]],
    ["statuz", ["name", "petId", "status"], ["status"]],
    ["getpet", ["getPets", "getPet", "addPet"], ["getPet", "getPets"]],
    ["id", ["petId", "name"], ["petId"]],
    ["bearer", ["bearerAuth", "api_key"], ["bearerAuth"]],
    ["x", ["y", "xy"], ["y", "xy"]],
    ["zzzz", ["name", "status"], []],
  ])("%s among %j: %j", (name, candidates, want) => {
    expect(rankClosest(name, candidates).map((near) => near.name)).toEqual(want);
  });
});

describe("suggestNames", () => {
  it.each<[string, string[], number, string[]]>([
    ["apikey", ["api_key", "bearer"], 1, ["api_key"]],
    ["regoin", ["region", "zone"], 1, ["region"]],
    ["nmae", ["name", "same"], 3, ["name"]],
    ["colour", ["color", "colours", "flavour"], 3, ["color", "colours"]],
    ["colour", ["color", "colours", "flavour"], 1, ["color"]],
    ["zzzz", ["name"], 3, []],
  ])("%s among %j, at most %d: %j", (name, candidates, max, want) => {
    expect(suggestNames(name, candidates, max)).toEqual(want);
  });
});

describe("rankClosest on a name longer than any declared one", () => {
  it("compares it with nothing, even when it holds a candidate", () => {
    // Compared, this name would hold `petId` and be ranked by an edit distance of 4 MiB × 5.
    const huge = `${"x".repeat(2 * 1024 * 1024)}petId${"x".repeat(2 * 1024 * 1024)}`;
    expect(rankClosest(huge, ["petId", "name"])).toEqual([]);
    expect(rankClosest(`petId${"x".repeat(MAX_COMPARED_CHARS - 5)}`, ["petId"])).toHaveLength(1);
    expect(rankClosest(`petId${"x".repeat(MAX_COMPARED_CHARS - 4)}`, ["petId"])).toEqual([]);
  });
});
