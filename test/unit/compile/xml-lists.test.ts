/**
 * planXmlLists: the element names of an XML answer's lists, from the response schema's `xml`
 * objects (AWS specs name an element in an allOf part beside its `$ref`), and none where a JSON
 * answer is offered.
 */
import { describe, expect, it } from "vitest";
import { planModel } from "../../../src/generator/compile/plan-model.js";
import type { LoadedSpec } from "../../../src/generator/spec/load-spec.js";

/** The xmlLists of the one operation answering `responses`, with `schemas` as components. */
function planLists(
  content: Record<string, unknown>,
  schemas: Record<string, unknown> = {},
): string[] | undefined {
  const loaded = {
    document: {
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      paths: { "/x": { get: { operationId: "x", responses: { "200": { description: "OK", content } } } } },
      components: { schemas },
    },
    specVersion: "3.0",
    source: "spec.json",
    diagnostics: [],
  } as unknown as LoadedSpec;
  return planModel(loaded, {}).tools[0]!.http.xmlLists;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe("planXmlLists", () => {
  it("names EC2's lists (allOf beside $ref), through a cycle", () => {
    const schemas = {
      Result: {
        type: "object",
        properties: {
          Reservations: { allOf: [ref("ReservationList"), { xml: { name: "reservationSet" } }] },
          NextToken: { allOf: [ref("String"), { xml: { name: "nextToken" } }] },
        },
      },
      ReservationList: { type: "array", items: { allOf: [ref("Reservation"), { xml: { name: "item" } }] } },
      Reservation: {
        type: "object",
        properties: {
          Instances: { allOf: [ref("InstanceList"), { xml: { name: "instancesSet" } }] },
          Parent: ref("Reservation"),
        },
      },
      InstanceList: { type: "array", items: { type: "string", xml: { name: "item" } } },
      String: { type: "string" },
    };
    expect(planLists({ "text/xml": { schema: ref("Result") } }, schemas)).toEqual([
      "instancesSet",
      "reservationSet",
    ]);
  });

  it("names the items of an unwrapped list (SQS's flattened Message), the wrapper of a wrapped one", () => {
    const schema = {
      type: "object",
      properties: {
        Messages: {
          type: "array",
          xml: { wrapped: false },
          items: { type: "object", xml: { name: "Message" } },
        },
        tags: { type: "array", xml: { wrapped: true }, items: { type: "string", xml: { name: "tag" } } },
      },
    };
    expect(planLists({ "application/xml": { schema } })).toEqual(["Message", "tags"]);
  });

  it("plans nothing where JSON is offered (the bridge asks for it first) or no list exists", () => {
    const schema = { type: "object", properties: { tags: { type: "array", items: { type: "string" } } } };
    expect(planLists({ "application/json": { schema }, "application/xml": { schema } })).toBeUndefined();
    expect(planLists({ "application/xml": { schema: { type: "object" } } })).toBeUndefined();
  });
});
