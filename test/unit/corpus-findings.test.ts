/**
 * Bugs the corpus harness (test/corpus) found on real specs, each pinned by a small case.
 */
import { describe, expect, it } from "vitest";
import type { LoadedSpec } from "../../src/generator/load.js";
import { planModel } from "../../src/generator/plan.js";
import type { BridgeModel } from "../../src/model/types.js";
import { buildRequest, withoutFragment } from "../../src/runtime/request.js";

function plan(paths: Record<string, unknown>): BridgeModel {
  return planModel({
    document: { openapi: "3.0.3", info: { title: "T", version: "1" }, paths },
    specVersion: "3.0",
    source: "spec.yaml",
    diagnostics: [],
  } as unknown as LoadedSpec);
}

const context = { baseUrl: "http://127.0.0.1:9", securitySchemes: {}, credentials: new Map(), headers: {} };

describe("path templates with a #fragment (APIs.guru's AWS specs)", () => {
  it.each([
    ["/#X-Amz-Target=AmazonAthena.ListWorkGroups", "/"],
    ["/{Bucket}#cors", "/{Bucket}"],
    ["/{Bucket}/{Key}#uploadId", "/{Bucket}/{Key}"],
    ["/a/{b#c}", "/a/{b#c}"],
    ["/plain", "/plain"],
  ])("%s is sent as %s", (given, want) => {
    expect(withoutFragment(given)).toBe(want);
  });

  it("never puts a # in the request line", () => {
    const model = plan({
      "/{Bucket}#cors": {
        get: {
          operationId: "GetBucketCors",
          parameters: [
            { name: "Bucket", in: "path", required: true, schema: { type: "string" } },
            { name: "x", in: "query", schema: { type: "string" } },
          ],
          responses: { "200": { description: "ok" } },
        },
      },
    });
    const request = buildRequest(model.tools[0]!, { Bucket: "b", x: "1" }, context);
    expect(request.path).toBe("/b?x=1");
  });
});
