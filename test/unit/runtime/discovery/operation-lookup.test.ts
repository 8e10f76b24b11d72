/**
 * The operation a model names: exactly, or the one tool whose name is the same without case and
 * separators; never a guess between two tools whose names differ only so.
 */
import { describe, expect, it } from "vitest";
import type { ToolNode } from "../../../../src/model/types.js";
import { createOperationLookup } from "../../../../src/runtime/discovery/operation-lookup.js";

const tools = ["get-an-artist", "list-pets", "listPets", "3d-secure", "users.get"].map(
  (name) => ({ name }) as ToolNode,
);

describe("createOperationLookup", () => {
  const find = createOperationLookup(tools);

  it.each([
    ["get-an-artist", "get-an-artist"],
    ["get_an_artist", "get-an-artist"],
    ["getAnArtist", "get-an-artist"],
    ["GET AN ARTIST", "get-an-artist"],
    ["list-pets", "list-pets"],
    ["listPets", "listPets"],
    ["list_pets", undefined],
    ["LISTPETS", undefined],
    ["3D_SECURE", "3d-secure"],
    ["users_get", "users.get"],
    ["get-an-artists", undefined],
    ["", undefined],
    [`get-an-artist${"-".repeat(200)}`, undefined],
  ])("%s finds %s", (name, want) => {
    expect(find(name)?.name).toBe(want);
  });
});
