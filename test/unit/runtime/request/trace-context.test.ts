/**
 * W3C Trace Context read from a call's `_meta` and sent as upstream headers: what is forwarded,
 * what is dropped, and what never overrides a header the request already has.
 */
import { describe, expect, it } from "vitest";
import type { ToolNode } from "../../../../src/model/types.js";
import { buildRequest } from "../../../../src/runtime/request/build-request.js";
import {
  addTraceHeaders,
  MAX_TRACESTATE_CHARS,
  parseTraceparent,
  parseTracestate,
  readTraceContext,
} from "../../../../src/runtime/request/trace-context.js";

const TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
const PARENT = `00-${TRACE_ID}-b7ad6b7169203331-01`;

describe("parseTraceparent", () => {
  const cases: { given: unknown; want: string | undefined; why: string }[] = [
    { given: PARENT, want: PARENT, why: "version 00, sampled" },
    {
      given: `00-${TRACE_ID}-b7ad6b7169203331-00`,
      want: `00-${TRACE_ID}-b7ad6b7169203331-00`,
      why: "not sampled",
    },
    { given: `  ${PARENT} `, want: PARENT, why: "surrounding spaces are not part of it" },
    { given: `00-${TRACE_ID.toUpperCase()}-b7ad6b7169203331-01`, want: undefined, why: "upper-case hex" },
    { given: `00-${"0".repeat(32)}-b7ad6b7169203331-01`, want: undefined, why: "all-zero trace id" },
    { given: `00-${TRACE_ID}-0000000000000000-01`, want: undefined, why: "all-zero parent id" },
    { given: `ff-${TRACE_ID}-b7ad6b7169203331-01`, want: undefined, why: "version ff is invalid" },
    { given: `${PARENT}-extra`, want: undefined, why: "version 00 is exactly 55 characters" },
    {
      given: `01-${TRACE_ID}-b7ad6b7169203331-01-future`,
      want: `01-${TRACE_ID}-b7ad6b7169203331-01`,
      why: "a later version: its 00 fields only",
    },
    {
      given: `01-${TRACE_ID}-b7ad6b7169203331-01x`,
      want: undefined,
      why: "a later version must continue with '-'",
    },
    { given: `00-${TRACE_ID}-b7ad6b716920333-01`, want: undefined, why: "short parent id" },
    { given: `00-${TRACE_ID}-b7ad6b7169203331-1`, want: undefined, why: "one-digit flags" },
    { given: `00_${TRACE_ID}_b7ad6b7169203331_01`, want: undefined, why: "wrong separators" },
    { given: `00-${TRACE_ID}-b7ad6b7169203331-01\r\nx-evil: 1`, want: undefined, why: "header injection" },
    {
      given: `01-${TRACE_ID}-b7ad6b7169203331-01-${"a".repeat(300)}`,
      want: undefined,
      why: "over the length cap",
    },
    { given: 42, want: undefined, why: "not a string" },
    { given: undefined, want: undefined, why: "absent" },
  ];
  it.each(cases)("$why", ({ given, want }) => {
    expect(parseTraceparent(given)?.traceparent).toBe(want);
  });

  it("names the trace id", () => {
    expect(parseTraceparent(PARENT)?.traceId).toBe(TRACE_ID);
  });
});

describe("parseTracestate", () => {
  const long = (key: string, length: number) => `${key}=${"v".repeat(length - key.length - 1)}`;
  const cases: { given: unknown; want: string | undefined; why: string }[] = [
    { given: "congo=t61rcWkgMzE", want: "congo=t61rcWkgMzE", why: "one member" },
    {
      given: "rojo=00f067aa0ba902b7, congo=t61rcWkgMzE",
      want: "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE",
      why: "spaces around members go",
    },
    { given: "a=1,,b=2, ", want: "a=1,b=2", why: "empty members are ignored" },
    { given: "tenant@vendor=x", want: "tenant@vendor=x", why: "multi-tenant key" },
    { given: "Congo=x", want: undefined, why: "upper-case key" },
    { given: "congo=a,b", want: undefined, why: "a member without '='" },
    { given: "congo=x,congo=y", want: undefined, why: "a key twice" },
    {
      given: "congo=x y ",
      want: "congo=x y",
      why: "a space inside a value stays, one after it is list whitespace",
    },
    { given: "congo=a=b", want: undefined, why: "'=' inside a value" },
    { given: "congo=\u00e9", want: undefined, why: "non-ASCII value" },
    {
      given: Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(","),
      want: undefined,
      why: "over 32 members",
    },
    { given: "", want: undefined, why: "nothing in it" },
    { given: 7, want: undefined, why: "not a string" },
  ];
  it.each(cases)("$why", ({ given, want }) => {
    expect(parseTracestate(given)).toBe(want);
  });

  it(`cuts to ${MAX_TRACESTATE_CHARS} characters: members over 128 first, then from the right`, () => {
    const members = [
      long("a", 100),
      long("big", 200),
      long("b", 100),
      long("c", 100),
      long("d", 100),
      long("e", 100),
    ];
    const cut = parseTracestate(members.join(","));
    expect(cut).toBe([members[0], members[2], members[3], members[4], members[5]].join(","));
    expect(cut!.length).toBeLessThanOrEqual(MAX_TRACESTATE_CHARS);
    const many = Array.from({ length: 8 }, (_, i) => long(`k${i}`, 100));
    const kept = parseTracestate(many.join(","))!;
    expect(kept).toBe(many.slice(0, 5).join(","));
  });
});

describe("readTraceContext", () => {
  it("keeps a tracestate only beside a valid traceparent", () => {
    expect(readTraceContext({ traceparent: PARENT, tracestate: "congo=x" })).toEqual({
      traceparent: PARENT,
      traceId: TRACE_ID,
      tracestate: "congo=x",
    });
    expect(readTraceContext({ traceparent: "nonsense", tracestate: "congo=x" })).toBeUndefined();
    expect(readTraceContext({ traceparent: PARENT, tracestate: "Bad=x" })).toEqual({
      traceparent: PARENT,
      traceId: TRACE_ID,
    });
    expect(readTraceContext({ tracestate: "congo=x" })).toBeUndefined();
    expect(readTraceContext(undefined)).toBeUndefined();
  });
});

describe("addTraceHeaders", () => {
  const trace = { traceparent: PARENT, traceId: TRACE_ID, tracestate: "congo=x" };
  const cases: { given: Record<string, string>; want: Record<string, string>; why: string }[] = [
    { given: {}, want: { traceparent: PARENT, tracestate: "congo=x" }, why: "both sent" },
    {
      given: { traceparent: "00-11111111111111111111111111111111-2222222222222222-01" },
      want: { traceparent: "00-11111111111111111111111111111111-2222222222222222-01" },
      why: "the operator's traceparent wins, and the client's tracestate does not ride on it",
    },
    {
      given: { tracestate: "operator=1" },
      want: { tracestate: "operator=1", traceparent: PARENT },
      why: "the operator's tracestate stays",
    },
  ];
  it.each(cases)("$why", ({ given, want }) => {
    const headers = { ...given };
    addTraceHeaders(headers, trace);
    expect(headers).toEqual(want);
  });
});

describe("buildRequest with a trace", () => {
  const tool = {
    name: "getThing",
    inputSchema: { type: "object" },
    http: {
      method: "get",
      path: "/things",
      parameters: [
        {
          argument: "traceparent",
          name: "traceparent",
          in: "header",
          required: false,
          style: "simple",
          explode: false,
          allowReserved: false,
          shape: "primitive",
        },
      ],
      security: [],
      responses: [],
      accept: ["application/json"],
    },
  } as unknown as ToolNode;
  const base = {
    baseUrl: "https://api.example.com",
    securitySchemes: {},
    credentials: new Map<string, string>(),
  };
  const trace = { traceparent: PARENT, traceId: TRACE_ID };

  it("sends the trace headers, except over the operator's --header and the operation's own parameter", () => {
    expect(buildRequest(tool, {}, { ...base, headers: {}, trace }).headers.traceparent).toBe(PARENT);
    expect(
      buildRequest(tool, {}, { ...base, headers: { traceparent: "operator" }, trace }).headers.traceparent,
    ).toBe("operator");
    expect(
      buildRequest(tool, { traceparent: "argument" }, { ...base, headers: {}, trace }).headers.traceparent,
    ).toBe("argument");
    expect(buildRequest(tool, {}, { ...base, headers: {} }).headers).not.toHaveProperty("traceparent");
  });
});
