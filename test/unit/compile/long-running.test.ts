/**
 * Long-running operations read from the spec (compile/long-running.ts): a 202, the status
 * headers on a 201 or 202, Azure's x-ms-long-running-operation and its final-state-via, links
 * to a status operation; a plain 201 with a Location (a created resource) is not one.
 */
import { describe, expect, it } from "vitest";
import { planModel } from "../../../src/generator/compile/plan-model.js";
import type { LoadedSpec } from "../../../src/generator/spec/load-spec.js";
import { loadSpec } from "../../../src/generator/spec/load-spec.js";
import type { LongRunningNode } from "../../../src/model/types.js";
import { stdin } from "../../helpers/spec-loading.js";

function planOne(operation: Record<string, unknown>): LongRunningNode | undefined {
  const loaded = {
    document: {
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      paths: { "/jobs": { post: { operationId: "startJob", ...operation } } },
      components: {
        responses: {
          Accepted: {
            description: "accepted",
            headers: { "Operation-Location": { schema: { type: "string" } } },
          },
        },
      },
    },
    specVersion: "3.0",
    source: "spec.yaml",
    diagnostics: [],
  } as unknown as LoadedSpec;
  return planModel(loaded).tools[0]!.http.longRunning;
}

const header = { schema: { type: "string" } };

const cases: { name: string; operation: Record<string, unknown>; want: LongRunningNode | undefined }[] = [
  {
    name: "a plain 200 is not long-running",
    operation: { responses: { "200": { description: "ok" } } },
    want: undefined,
  },
  {
    name: "a 201 with only a Location is a created resource",
    operation: { responses: { "201": { description: "created", headers: { Location: header } } } },
    want: undefined,
  },
  {
    name: "a 202 without headers: any status header the answer brings",
    operation: { responses: { "202": { description: "accepted" } } },
    want: { statusHeaders: ["azure-asyncoperation", "operation-location", "location"] },
  },
  {
    name: "a 202 with a Location",
    operation: { responses: { "202": { description: "accepted", headers: { Location: header } } } },
    want: { statusHeaders: ["location"] },
  },
  {
    name: "a 201 with an Operation-Location (Fabric, Cognitive Services)",
    operation: {
      responses: { "201": { description: "created", headers: { "Operation-Location": header } } },
    },
    want: { statusHeaders: ["operation-location"] },
  },
  {
    name: "a 202 by $ref with its header",
    operation: { responses: { "202": { $ref: "#/components/responses/Accepted" } } },
    want: { statusHeaders: ["operation-location"] },
  },
  {
    name: "Azure: both headers, most specific first, and final-state-via",
    operation: {
      "x-ms-long-running-operation": true,
      "x-ms-long-running-operation-options": { "final-state-via": "original-uri" },
      responses: {
        "200": { description: "ok" },
        "201": { description: "created", headers: { "Azure-AsyncOperation": header, Location: header } },
      },
    },
    want: { statusHeaders: ["azure-asyncoperation", "location"], finalStateVia: "original-uri" },
  },
  {
    name: "Azure's flag alone: any status header, an unknown final-state-via ignored",
    operation: {
      "x-ms-long-running-operation": true,
      "x-ms-long-running-operation-options": { "final-state-via": "somewhere" },
      responses: { "200": { description: "ok" } },
    },
    want: { statusHeaders: ["azure-asyncoperation", "operation-location", "location"] },
  },
  {
    name: "a link of a 201 to a status operation",
    operation: {
      responses: {
        "201": { description: "created", links: { status: { operationId: "getJobStatus" } } },
      },
    },
    want: { statusHeaders: ["azure-asyncoperation", "operation-location", "location"] },
  },
  {
    name: "a link of a 201 to another kind of operation is not one",
    operation: {
      responses: { "201": { description: "created", links: { owner: { operationId: "getUser" } } } },
    },
    want: undefined,
  },
  {
    name: "callbacks alone are not polled",
    operation: {
      callbacks: {
        done: { "{$request.body#/url}": { post: { responses: { "200": { description: "ok" } } } } },
      },
      responses: { "201": { description: "created" } },
    },
    want: undefined,
  },
];

describe("planLongRunning", () => {
  for (const { name, operation, want } of cases) {
    it(name, () => {
      expect(planOne(operation)).toEqual(want);
    });
  }

  it("keeps Azure's extensions through the Swagger 2.0 loader", async () => {
    const spec = JSON.stringify({
      swagger: "2.0",
      info: { title: "Azure-like", version: "1" },
      host: "management.example.com",
      paths: {
        "/vms/{name}": {
          put: {
            operationId: "VirtualMachines_CreateOrUpdate",
            "x-ms-long-running-operation": true,
            "x-ms-long-running-operation-options": { "final-state-via": "azure-async-operation" },
            parameters: [{ name: "name", in: "path", required: true, type: "string" }],
            responses: {
              "200": { description: "ok" },
              "201": { description: "created", headers: { "Azure-AsyncOperation": { type: "string" } } },
            },
          },
        },
      },
    });
    const loaded = await loadSpec("-", stdin(spec));
    expect(planModel(loaded).tools[0]!.http.longRunning).toEqual({
      statusHeaders: ["azure-asyncoperation"],
      finalStateVia: "azure-async-operation",
    });
  });
});
