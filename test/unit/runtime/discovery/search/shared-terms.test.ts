/**
 * Sharing terms between discovery's search and the model cache's saved index: while on, a tool's
 * terms are computed once (the second build reads the first's), only while the tool still says
 * what they were made of; off, nothing is kept. Either way each build gives what it gives alone.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ToolNode } from "../../../../../src/model/types.js";
import { readDocumentSource, termsOf } from "../../../../../src/runtime/discovery/search/fields.js";
import { buildSavedIndex } from "../../../../../src/runtime/discovery/search/saved-index.js";
import {
  readToolTerms,
  startSharingTerms,
} from "../../../../../src/runtime/discovery/search/shared-terms.js";
import { createOperationSearch } from "../../../../../src/runtime/discovery/search.js";
import { planSpec } from "../../../../e2e/safety-support.js";

const ok = { "200": { description: "OK" } };
const TOOLS: ToolNode[] = planSpec({
  paths: {
    "/users": { get: { operationId: "listUsers", summary: "List users", responses: ok } },
    "/users/{id}/messages": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      get: { operationId: "listMessages", summary: "List a user's messages", tags: ["mail"], responses: ok },
    },
  },
}).tools;

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
});

describe("shared terms", () => {
  it("keeps nothing while sharing is off", () => {
    const tool = TOOLS[0]!;
    expect(readToolTerms(tool)).not.toBe(readToolTerms(tool));
    expect(readToolTerms(tool)).toEqual(termsOf(readDocumentSource(tool)));
  });

  it("computes a tool's terms once while sharing is on, and forgets them when it stops", () => {
    stop = startSharingTerms();
    const tool = TOOLS[1]!;
    const first = readToolTerms(tool);
    expect(readToolTerms(tool)).toBe(first);
    expect(first).toEqual(termsOf(readDocumentSource(tool)));
    stop();
    expect(readToolTerms(tool)).not.toBe(first);
  });

  it("computes them again for a tool that changed since", () => {
    stop = startSharingTerms();
    const tool = structuredClone(TOOLS[1]!);
    const before = readToolTerms(tool);
    tool.description = "Read the inbox of a user";
    const after = readToolTerms(tool);
    expect(after).not.toBe(before);
    expect(after).toEqual(termsOf(readDocumentSource(tool)));
  });

  it("gives the same saved index and search whether one build shared with the other or not", () => {
    const alone = { index: buildSavedIndex(TOOLS), search: createOperationSearch(TOOLS) };
    stop = startSharingTerms();
    const search = createOperationSearch(TOOLS); // the runtime's build first, as on a first start
    const index = buildSavedIndex(TOOLS); // then the cache write's, from the kept terms
    expect(index).toEqual(alone.index);
    for (const query of ["list users", "messages of a user"]) {
      expect(search.search(query)).toEqual(alone.search.search(query));
    }
  });
});
