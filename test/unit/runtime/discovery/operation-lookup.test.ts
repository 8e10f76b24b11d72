/**
 * The operation a model names: exactly, or the one tool whose name is the same without case and
 * separators; never a guess between two tools whose names differ only so.
 */
import { describe, expect, it } from "vitest";
import type { ToolNode } from "../../../../src/model/types.js";
import { createOperationLookup } from "../../../../src/runtime/discovery/operation-lookup.js";

const tools = [
  ["get-an-artist", "get", "/artists/{id}"],
  ["list-pets", "get", "/pets"],
  ["listPets", "post", "/pets"],
  ["3d-secure", "get", "/3d"],
  ["users.get", "get", "/users/{id}"],
  // AWS's query protocol: one action, served by both methods.
  ["POST_RunInstances", "post", "/#Action=RunInstances"],
  ["GET_RunInstances", "get", "/#Action=RunInstances"],
  ["POST_CreateTags", "post", "/#Action=CreateTags"],
].map(([name, method, path]) => ({ name, http: { method, path } }) as unknown as ToolNode);

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
    ["GET /artists/{id}", "get-an-artist"],
    ["get  /pets", "list-pets"],
    ["POST /pets", "listPets"],
    ["DELETE /pets", undefined],
    ["GET /artists/1", undefined],
    [`get-an-artist${"-".repeat(200)}`, undefined],
    ["GET_RunInstances", "GET_RunInstances"],
    ["RunInstances", "GET_RunInstances"],
    ["run_instances", "GET_RunInstances"],
    ["CreateTags", "POST_CreateTags"],
    ["RunInstance", undefined],
  ])("%s finds %s", (name, want) => {
    expect(find(name)?.name).toBe(want);
  });
});
