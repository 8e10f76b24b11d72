/**
 * The field names of a successful answer (ToolNode.resultFields): breadth first, links apart,
 * allOf and oneOf parts merged, capped in number and depth; none for an answer that is not JSON
 * or names no field. The same object for every operation answering with one schema.
 */
import { describe, expect, it } from "vitest";
import { planModel } from "../../../src/generator/compile/plan-model.js";
import { RESULT_FIELD_DEPTH, RESULT_FIELD_NAMES } from "../../../src/generator/compile/result-fields.js";
import type { LoadedSpec } from "../../../src/generator/spec/load-spec.js";
import type { BridgeModel, ResultFieldsNode } from "../../../src/model/types.js";

function plan(paths: Record<string, unknown>, schemas: Record<string, unknown> = {}): BridgeModel {
  const loaded = {
    document: {
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      paths,
      components: { schemas },
    },
    specVersion: "3.0",
    source: "spec.yaml",
    diagnostics: [],
  } as unknown as LoadedSpec;
  return planModel(loaded);
}

/** The names planned for one GET answering `content` with status `status`. */
function fieldsOf(
  content: Record<string, unknown>,
  schemas: Record<string, unknown> = {},
  status = "200",
): ResultFieldsNode | undefined {
  const model = plan(
    { "/x": { get: { operationId: "getX", responses: { [status]: { description: "ok", content } } } } },
    schemas,
  );
  return model.tools[0]!.resultFields;
}

const json = (schema: unknown) => ({ "application/json": { schema } });
const object = (properties: Record<string, unknown>) => ({ type: "object", properties });
const S = { type: "string" };

describe("planResultFields", () => {
  it.each<{
    given: string;
    content: Record<string, unknown>;
    schemas?: Record<string, unknown>;
    want: unknown;
  }>([
    {
      given: "an object",
      content: json(object({ id: { type: "integer" }, name: S })),
      want: { fields: { id: {}, name: {} } },
    },
    {
      given: "a list of objects, with a list of scalars and a nested object",
      content: json({
        type: "array",
        items: object({ tags: { type: "array", items: S }, owner: object({ login: S }) }),
      }),
      want: { list: true, fields: { tags: { list: true }, owner: { fields: { login: {} } } } },
    },
    {
      given: "links apart, in order",
      content: json(object({ id: S, html_url: S, url: S, avatarUrl: S })),
      want: { fields: { id: {}, url: {} }, links: ["html_url", "avatarUrl"] },
    },
    {
      given: "an allOf chain and a $ref",
      content: json({ $ref: "#/components/schemas/User" }),
      schemas: {
        Entity: object({ id: S }),
        Directory: { allOf: [{ $ref: "#/components/schemas/Entity" }, object({ deletedAt: S })] },
        User: { allOf: [{ $ref: "#/components/schemas/Directory" }, object({ mail: S })] },
      },
      want: { fields: { mail: {}, deletedAt: {}, id: {} } },
    },
    {
      given: "oneOf kinds: the fields of any",
      content: json({ oneOf: [object({ id: S, plan: S }), object({ id: S, bio: S })] }),
      want: { fields: { id: {}, plan: {}, bio: {} } },
    },
    {
      given: "a scalar answer (wrapped as `result`): no field to pick",
      content: json(S),
      want: undefined,
    },
    { given: "a list of scalars", content: json({ type: "array", items: S }), want: undefined },
    { given: "an answer that is not JSON", content: { "text/csv": { schema: S } }, want: undefined },
    {
      // read into JSON by the runtime (xml-json.ts): keys are element names, a wrapped list is
      // a list under its wrapper's name, an unwrapped one under its items' name
      given: "an XML answer: its fields by element name",
      content: {
        "text/xml": {
          schema: object({
            Reservations: {
              type: "array",
              xml: { name: "reservationSet", wrapped: true },
              items: {
                ...object({ InstanceId: { ...S, xml: { name: "instanceId" } } }),
                xml: { name: "item" },
              },
            },
            Messages: { type: "array", xml: { wrapped: false }, items: { ...S, xml: { name: "Message" } } },
            Version: { ...S, xml: { name: "version", attribute: true } },
            requestId: S,
          }),
        },
      },
      want: {
        fields: {
          reservationSet: { list: true, fields: { instanceId: {} } },
          Message: { list: true },
          "@version": {},
          requestId: {},
        },
      },
    },
    {
      given: "an AWS XML answer: element names and list items in allOf parts beside a $ref",
      content: { "text/xml": { schema: { $ref: "#/components/schemas/Result" } } },
      schemas: {
        Result: object({
          Reservations: {
            allOf: [{ $ref: "#/components/schemas/ReservationList" }, { xml: { name: "reservationSet" } }],
          },
          NextToken: { allOf: [{ $ref: "#/components/schemas/Token" }, { xml: { name: "nextToken" } }] },
        }),
        ReservationList: {
          type: "array",
          items: { allOf: [{ $ref: "#/components/schemas/Reservation" }, { xml: { name: "item" } }] },
        },
        Reservation: object({
          ReservationId: {
            allOf: [{ $ref: "#/components/schemas/Token" }, { xml: { name: "reservationId" } }],
          },
        }),
        Token: S,
      },
      want: { fields: { reservationSet: { list: true, fields: { reservationId: {} } }, nextToken: {} } },
    },
    {
      given: "XML beside another media type: nothing (which one comes is not known)",
      content: { "text/xml": { schema: object({ a: S }) }, "text/plain": { schema: S } },
      want: undefined,
    },
    { given: "no content", content: {}, want: undefined },
  ])("$given", ({ content, schemas, want }) => {
    expect(fieldsOf(content, schemas)).toEqual(want);
  });

  it("takes the first 2xx JSON answer beside others", () => {
    const content = { "application/xml": { schema: object({ a: S }) }, ...json(object({ b: S })) };
    expect(fieldsOf(content, {}, "201")).toEqual({ fields: { b: {} } });
  });

  it("names every field of the answer before any field of a field, up to RESULT_FIELD_NAMES", () => {
    const wide = Object.fromEntries(
      Array.from({ length: RESULT_FIELD_NAMES + 5 }, (_, i) => [`f${i}`, object({ inner: S })]),
    );
    const fields = fieldsOf(json(object(wide)))!;
    expect(Object.keys(fields.fields!)).toHaveLength(RESULT_FIELD_NAMES);
    expect(fields.more).toBe(5);
    // no name left for the fields' own: each is an object whose fields are only counted
    expect(fields.fields!.f0).toEqual({ more: 1 });
  });

  it("counts the fields deeper than RESULT_FIELD_DEPTH, and stops at a cycle's depth", () => {
    const fields = fieldsOf(json({ $ref: "#/components/schemas/Node" }), {
      Node: object({ name: S, child: { $ref: "#/components/schemas/Node" } }),
    })!;
    let node = fields;
    for (let level = 1; level < RESULT_FIELD_DEPTH; level++) node = node.fields!.child!;
    expect(node.fields!.child).toEqual({ more: 2 });
  });

  it("shares the names of one schema between operations", () => {
    const get = (operationId: string) => ({
      get: {
        operationId,
        responses: { "200": { description: "ok", content: json({ $ref: "#/components/schemas/Pet" }) } },
      },
    });
    const model = plan({ "/a": get("a"), "/b": get("b") }, { Pet: object({ id: S }) });
    expect(model.tools[0]!.resultFields).toBe(model.tools[1]!.resultFields);
  });

  it("keeps a field named __proto__ as a field", () => {
    const fields = fieldsOf(
      json(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}')),
    );
    expect(Object.keys(fields!.fields!)).toEqual(["__proto__"]);
  });
});
