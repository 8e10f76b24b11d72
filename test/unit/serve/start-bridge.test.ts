/** serve of several APIs refuses namespaces that cannot be told apart before anything starts. */
import { describe, expect, it } from "vitest";
import { BridgeError } from "../../../src/model/diagnostics.js";
import { startBridge } from "../../../src/serve/start-bridge.js";
import { planSpec, TOY_PATHS } from "../../e2e/safety-support.js";

const model = planSpec({ paths: TOY_PATHS });
const START = { name: "test", env: {}, help: "`openapi-mcp-bridge serve --help`" };

async function refusal(namespaces: (string | undefined)[]): Promise<BridgeError> {
  const apis = namespaces.map((namespace) => ({
    model,
    settings: {},
    env: {},
    ...(namespace !== undefined ? { namespace } : {}),
  }));
  try {
    await startBridge(apis, { transport: "http", port: 0 }, START);
  } catch (error) {
    if (error instanceof BridgeError) return error;
    throw error;
  }
  throw new Error("the bridge started");
}

describe("startBridge with several APIs", () => {
  it.each<[string, (string | undefined)[], RegExp]>([
    ["the same namespace in another case", ["erp", "ERP"], /two APIs have the namespace "ERP"/],
    [
      "namespaces that share their variables",
      ["a-b", "a_b"],
      /the namespaces "a-b" and "a_b" share the variables OPENAPI_MCP_A_B__\*/,
    ],
    ["an API without a namespace", ["erp", undefined], /has no namespace, and the bridge serves 2 APIs/],
  ])("refuses %s", async (_label, namespaces, message) => {
    const error = await refusal(namespaces);
    expect(error.diagnostics).toHaveLength(1);
    expect(error.diagnostics[0]).toMatchObject({ code: "OMB_NAMESPACE" });
    expect(error.diagnostics[0]?.message).toMatch(message);
  });
});
