// Quick start: a bundled pet store API on 127.0.0.1, the bridge over it (stdio, as an MCP
// client would start it), a real MCP client listing the tools and making a few calls.
// `npm run demo -- --mode discovery`: the same API in discovery mode, a search -> describe ->
// call session; `--mode code`: search with signatures, then programs run by execute.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { DEMO_API_KEY, startPetstore } from "../examples/petstore/server.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const spec = join(root, "examples/petstore/openapi.yaml");
const modeAt = process.argv.indexOf("--mode");
const mode = modeAt === -1 ? "tools" : (process.argv[modeAt + 1] ?? "tools");
const api = await startPetstore();
console.log(`Pet store API listening on ${api.url}`);
console.log(
  `Starting: openapi-mcp-bridge serve examples/petstore/openapi.yaml --base-url ${api.url} --auth apiKey=*** --mode ${mode}\n`,
);

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [
    join(root, "dist/cli/main.js"),
    "serve",
    spec,
    "--base-url",
    api.url,
    "--auth",
    `apiKey=${DEMO_API_KEY}`,
    "--mode",
    mode,
  ],
  stderr: "inherit",
});
const client = new Client({ name: "demo-client", version: "1.0.0" });
await client.connect(transport);

const { tools } = await client.listTools();
console.log(`tools/list → ${tools.length} tools`);
for (const tool of tools) {
  const required = tool.inputSchema.required ?? [];
  console.log(
    `  ${tool.name.padEnd(12)} ${tool.description.split("\n")[0]}  (required: ${required.join(", ") || "none"})`,
  );
}

const discoveryCalls = [
  ["search_operations", { query: "find a pet by its id" }],
  ["describe_operations", { names: ["getPetById"] }],
  ["call_operation", { name: "getPetById", arguments: { petId: 1 } }],
  ["call_operation", { name: "getPetById", arguments: { petId: "one" } }],
  ["call_operation", { name: "getPet", arguments: { petId: 1 } }],
];
const codeCalls = [
  ["search_operations", { query: "list pets" }],
  [
    "execute",
    {
      program:
        'const pets = await api.listPets({ status: "available" });\nreturn pets.map((pet) => pet.name);',
    },
  ],
  ["execute", { program: "try { await api.getPetById({ petId: 999 }); } catch (e) { return e.message; }" }],
];
const toolCalls = [
  ["listPets", { status: "available" }],
  ["createPet", { name: "Fido", tags: ["dog", "puppy"] }],
  ["getPetById", { petId: "3" }],
  ["getPetById", { petId: 999 }],
  ["deletePet", { petId: 3 }],
  ["listPets", { limit: "not a number" }],
];
const calls = { discovery: discoveryCalls, code: codeCalls }[mode] ?? toolCalls;
for (const [name, args] of calls) {
  const result = await client.callTool({ name, arguments: args });
  const text = result.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");
  console.log(`\ntools/call ${name} ${JSON.stringify(args)} → ${result.isError ? "isError" : "ok"}`);
  console.log(`  ${text.split("\n").join("\n  ")}`);
}

await client.close();
await api.close();
console.log("\nDone: the bridge served the spec, validated arguments, called the API and reported errors.");
