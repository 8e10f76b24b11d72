import { describe, expect, it } from "vitest";
import {
  chooseToolName,
  deriveNameFromRoute,
  fitName,
  resolveNameCollisions,
  sanitizeName,
  TOOL_NAME_PATTERN,
} from "../../../src/generator/compile/naming.js";

describe("sanitizeName", () => {
  it.each([
    { given: "getPetById", want: "getPetById" },
    { given: "pets.list", want: "pets_list" },
    { given: "repos/get-content", want: "repos_get-content" },
    { given: "  spaced out  ", want: "spaced_out" },
    { given: "Ünïcödé name", want: "Unicode_name" },
    { given: "a..b//c", want: "a_b_c" },
    { given: "...", want: "" },
  ])("$given → $want", ({ given, want }) => {
    expect(sanitizeName(given)).toBe(want);
  });
});

describe("deriveNameFromRoute", () => {
  it.each([
    { method: "get", path: "/pets/{petId}", want: "get_pets_by_petId" },
    { method: "POST", path: "/pets", want: "post_pets" },
    { method: "get", path: "/", want: "get" },
    {
      method: "delete",
      path: "/users/{user-id}/keys/{key.id}",
      want: "delete_users_by_user-id_keys_by_key_id",
    },
  ])("$method $path → $want", ({ method, path, want }) => {
    expect(deriveNameFromRoute(method, path)).toBe(want);
  });
});

describe("fitName", () => {
  it("keeps names up to 64 characters", () => {
    const name = "a".repeat(64);
    expect(fitName(name)).toBe(name);
  });
  it("shortens longer names with a stable hash, and two long names stay distinct", () => {
    const one = fitName(`${"x".repeat(70)}_one`);
    const two = fitName(`${"x".repeat(70)}_two`);
    expect(one).toHaveLength(64);
    expect(one).toMatch(TOOL_NAME_PATTERN);
    expect(one).not.toBe(two);
    expect(fitName(`${"x".repeat(70)}_one`)).toBe(one);
  });
});

describe("chooseToolName", () => {
  it.each([
    { op: { operationId: "listPets", method: "get", path: "/pets" }, want: "listPets" },
    { op: { operationId: "pets.list", method: "get", path: "/pets" }, want: "pets_list" },
    { op: { method: "get", path: "/pets/{id}" }, want: "get_pets_by_id" },
    { op: { operationId: "", method: "put", path: "/a" }, want: "put_a" },
    { op: { operationId: "!!!", method: "put", path: "/a" }, want: "put_a" },
  ])("$want", ({ op, want }) => {
    expect(chooseToolName(op).name).toBe(want);
  });
  it("tells how the name was made", () => {
    expect(chooseToolName({ operationId: "ok_id", method: "get", path: "/" }).origin).toBe("operationId");
    expect(chooseToolName({ operationId: "a.b", method: "get", path: "/" }).origin).toBe("cleaned");
    expect(chooseToolName({ operationId: "x".repeat(65), method: "get", path: "/" }).origin).toBe("cleaned");
    expect(chooseToolName({ method: "get", path: "/a" }).origin).toBe("route");
  });
});

describe("resolveNameCollisions", () => {
  it("keeps the first name and gives later duplicates a route-derived suffix", () => {
    const names = resolveNameCollisions([
      { name: "getPet", route: "GET /pets/{id}" },
      { name: "getPet", route: "GET /v2/pets/{id}" },
      { name: "GETPET", route: "GET /v3/pets/{id}" },
      { name: "other", route: "GET /other" },
    ]);
    expect(names[0]).toBe("getPet");
    expect(names[1]).toMatch(/^getPet_[0-9a-f]{6}$/);
    expect(names[2]).toMatch(/^GETPET_[0-9a-f]{6}$/);
    expect(names[3]).toBe("other");
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(4);
  });
  it("lets an operationId used as it is win over a cleaned or derived name", () => {
    const names = resolveNameCollisions([
      { name: "get_pets", route: "GET /pets", origin: "route" },
      { name: "get_pets", route: "GET /x", origin: "cleaned" },
      { name: "get_pets", route: "GET /y", origin: "operationId" },
    ]);
    expect(names[2]).toBe("get_pets");
    expect(names[0]).toMatch(/^get_pets_[0-9a-f]{6}$/);
    expect(names[1]).toMatch(/^get_pets_[0-9a-f]{6}$/);
  });
  it("is stable when an unrelated operation is added in front", () => {
    const before = resolveNameCollisions([
      { name: "dup", route: "GET /a" },
      { name: "dup", route: "GET /b" },
    ]);
    const after = resolveNameCollisions([
      { name: "new", route: "GET /new" },
      { name: "dup", route: "GET /a" },
      { name: "dup", route: "GET /b" },
    ]);
    expect(after.slice(1)).toEqual(before);
  });
});
