/**
 * XML answers read into JSON, end to end: the built CLI over stdio, a real SDK Client, an
 * upstream on 127.0.0.1 answering as AWS EC2 does (text/xml, `<xSet><item/>` lists).
 * - discovery: call_operation shows compact JSON with a structured copy, `fields` picks fields
 *   of it, a cut answer is read to its end by handle (every item, one API request), an empty
 *   list the spec names is an empty list;
 * - tools mode: an XML error body gives its Code and Message; XML that does not read cleanly
 *   (a DOCTYPE) stays text;
 * - code mode: `api.x()` gives the program the JSON value.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectStdio, type SpawnedConnected, textOf } from "../helpers/bridge.js";
import { sendBytes, startUpstream, type Upstream } from "../helpers/upstream.js";

const BUDGET = 3000;
const INSTANCES = Array.from({ length: 80 }, (_, i) => ({
  instanceId: `i-${String(i).padStart(17, "0")}`,
  instanceType: "t3.micro",
  instanceState: { code: "16", name: "running" },
  tagSet: [{ key: "Name", value: `web & api ${i}` }],
  groupSet: [],
}));

const DESCRIBE_XML =
  '<?xml version="1.0" encoding="UTF-8"?>\n<DescribeInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">\n' +
  "  <requestId>7a62c49f-347e-4fc4-9331-6e8eEXAMPLE</requestId>\n  <instancesSet>\n" +
  INSTANCES.map(
    (i) =>
      `    <item>\n      <instanceId>${i.instanceId}</instanceId>\n      <instanceType>${i.instanceType}</instanceType>\n` +
      `      <instanceState><code>16</code><name>running</name></instanceState>\n` +
      `      <tagSet><item><key>Name</key><value>${i.tagSet[0]!.value.replace("&", "&amp;")}</value></item></tagSet>\n` +
      "      <groupSet/>\n    </item>\n",
  ).join("") +
  "  </instancesSet>\n</DescribeInstancesResponse>\n";
const DOCTYPE_XML = '<!DOCTYPE r [<!ENTITY a "aaaa">]><r>&a;</r>';
const ERROR_XML =
  "<Response><Errors><Error><Code>InvalidInstanceID.NotFound</Code><Message>The instance ID 'i-1' does not exist</Message></Error></Errors><RequestID>r-1</RequestID></Response>";

/** The answer's schema names its lists: an empty `groupSet` reads as an empty list. */
const INSTANCES_SCHEMA = {
  type: "object",
  properties: {
    instancesSet: {
      type: "array",
      items: {
        type: "object",
        xml: { name: "item" },
        properties: { groupSet: { type: "array", items: { type: "object", xml: { name: "item" } } } },
      },
    },
  },
};
const xmlResponse = (description: string, schema: unknown = { type: "object" }) => ({
  description,
  content: { "text/xml": { schema } },
});

let upstream: Upstream;
let dir: string;
let spec: string;

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    if (req.rawPath === "/instances") sendBytes(res, 200, "text/xml;charset=UTF-8", DESCRIBE_XML);
    else if (req.rawPath === "/doctype") sendBytes(res, 200, "application/xml", DOCTYPE_XML);
    else sendBytes(res, 400, "text/xml;charset=UTF-8", ERROR_XML);
  });
  dir = mkdtempSync(join(tmpdir(), "omb-xml-results-"));
  spec = join(dir, "ec2.json");
  const operation = (operationId: string, schema?: unknown) => ({
    get: {
      operationId,
      responses: { "200": xmlResponse("Success", schema), "400": { description: "Failure" } },
    },
  });
  writeFileSync(
    spec,
    JSON.stringify({
      openapi: "3.0.3",
      info: { title: "EC2-like", version: "1" },
      servers: [{ url: upstream.url }],
      paths: {
        "/instances": operation("describeInstances", INSTANCES_SCHEMA),
        "/doctype": operation("getDoctype"),
        "/missing": operation("getMissing"),
      },
    }),
  );
});

afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

const metaOf = (result: CallToolResult): { continuation?: string } =>
  (Object.entries(result._meta ?? {}).find(([key]) => key.endsWith("truncated"))?.[1] ?? {}) as {
    continuation?: string;
  };

describe("discovery mode over stdio", () => {
  let bridge: SpawnedConnected;
  beforeAll(async () => {
    bridge = await connectStdio(spec, ["--mode", "discovery", "--max-result-chars", String(BUDGET)]);
  });
  afterAll(async () => {
    await bridge?.close();
  });

  it("shows the XML answer as JSON, which fields narrow", async () => {
    upstream.reset();
    const result = await bridge.call("call_operation", {
      name: "describeInstances",
      arguments: {},
      fields: ["requestId", "instancesSet[1].instanceId", "instancesSet[1].tagSet"],
    });
    expect(result.isError ?? false).toBe(false);
    const want = {
      requestId: "7a62c49f-347e-4fc4-9331-6e8eEXAMPLE",
      instancesSet: [
        { instanceId: INSTANCES[1]!.instanceId, tagSet: [{ key: "Name", value: "web & api 1" }] },
      ],
    };
    expect(textOf(result)).toBe(JSON.stringify(want));
    expect(result.structuredContent).toEqual(want);
  });

  it("cuts the JSON to whole items and reads the rest by handle, one API request", async () => {
    upstream.reset();
    const first = await bridge.call("call_operation", { name: "describeInstances", arguments: {} });
    const text = textOf(first);
    expect(text.length).toBeLessThanOrEqual(BUDGET);
    expect(text.startsWith('{"requestId":"7a62c49f-347e-4fc4-9331-6e8eEXAMPLE","instancesSet":[{')).toBe(
      true,
    );
    const items = [...(first.structuredContent as { instancesSet: unknown[] }).instancesSet];
    let handle = metaOf(first).continuation;
    expect(handle).toBeDefined();
    while (handle !== undefined) {
      const part = await bridge.call("call_operation", { continue: handle });
      const partText = textOf(part);
      expect(part.isError ?? false, partText).toBe(false);
      items.push(...(JSON.parse(partText.slice(0, partText.lastIndexOf("\n[Part of"))) as unknown[]));
      handle = metaOf(part).continuation;
    }
    expect(items).toEqual(INSTANCES);
    expect(upstream.requests).toHaveLength(1);
  });
});

describe("tools mode over stdio", () => {
  let bridge: SpawnedConnected;
  beforeAll(async () => {
    bridge = await connectStdio(spec, ["--mode", "tools"]);
  });
  afterAll(async () => {
    await bridge?.close();
  });

  it("an XML error gives its code and message", async () => {
    const result = await bridge.call("getMissing", {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      "The API says: InvalidInstanceID.NotFound: The instance ID 'i-1' does not exist",
    );
  });

  it("XML with a DOCTYPE stays text, its entity never expanded", async () => {
    const result = await bridge.call("getDoctype", {});
    expect(textOf(result)).toBe(DOCTYPE_XML);
    expect(result.structuredContent).toBeUndefined();
  });
});

describe("code mode over stdio", () => {
  let bridge: SpawnedConnected;
  beforeAll(async () => {
    bridge = await connectStdio(spec, ["--mode", "code"]);
  });
  afterAll(async () => {
    await bridge?.close();
  });

  it("api.x() gives the program the JSON value of an XML answer", async () => {
    const result = await bridge.call("execute", {
      program:
        "const r = await api.describeInstances(); return { n: r.instancesSet.length, tag: r.instancesSet[3].tagSet[0].value };",
    });
    expect(result.structuredContent).toEqual({ n: 80, tag: "web & api 3" });
  });
});
