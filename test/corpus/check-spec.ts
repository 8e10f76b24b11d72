/**
 * One spec, in its own child process (run.ts starts it with a time limit and kills its whole
 * process group when the limit passes): load and build the model, check every tool, then call
 * every (or a fixed share of every) tool through a real MCP client and the bridge against Prism.
 *
 * Sends progress (`{ phase }`) and then one `{ result }` over the IPC channel.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import { Agent, type Dispatcher } from "undici";
import { parse as parseYaml } from "yaml";
import type { BridgeModel, ToolNode } from "../../src/index.js";
import { generateArguments } from "./generate.js";
import { PRISM_ERROR_PREFIX, startPrism } from "./prism.js";
import {
  type CallFailure,
  type CallPass,
  type Exchange,
  emptyPass,
  type PassResult,
  type SpecJob,
  type SpecProblem,
  type SpecResult,
} from "./types.js";

type Library = typeof import("../../src/index.js");

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function send(message: unknown): Promise<void> {
  return new Promise((resolveSend) => {
    if (process.send) process.send(message, undefined, {}, () => resolveSend());
    else process.stdout.write(`${JSON.stringify(message)}\n`, () => resolveSend());
  });
}

/** Prism for this spec: started by the CLI here, or by run.ts's Prism host (its URL comes over IPC). */
interface JudgeServer {
  url: string;
  stop(): Promise<void>;
}

/** Answers from run.ts (`{ prism: { url } | { error } }`), in order; listened to from the start. */
const hostAnswers: { id?: string; url?: string; error?: string }[] = [];
let hostWaiter: (() => void) | undefined;

function listenForHostedPrism(): void {
  process.on("message", (message: { prism?: { id?: string; url?: string; error?: string } }) => {
    if (!message.prism) return;
    hostAnswers.push(message.prism);
    hostWaiter?.();
  });
}

async function hostedPrism(id: string): Promise<JudgeServer> {
  let answer: { id?: string; url?: string; error?: string } | undefined;
  // In a batch, answers for earlier specs that made no calls are passed over.
  while (answer === undefined || (answer.id !== undefined && answer.id !== id)) {
    while (hostAnswers.length === 0) await new Promise<void>((resolveWait) => (hostWaiter = resolveWait));
    answer = hostAnswers.shift()!;
  }
  if (!answer.url) throw new Error(answer.error ?? "Prism did not start");
  // run.ts stops the hosted server once this process has exited.
  return { url: answer.url, stop: async () => {} };
}

/** A fresh Prism after the last one stopped answering (it crashes on some requests). */
async function restartPrism(job: SpecJob, file: string, old: JudgeServer): Promise<JudgeServer> {
  await old.stop();
  if (job.prismCli) return startPrism(file, job.prismStartMs);
  await send({ restartPrism: true });
  return hostedPrism(job.id);
}

export async function checkSpec(job: SpecJob, library: Library): Promise<SpecResult> {
  const started = performance.now();
  const result: SpecResult = {
    id: job.id,
    bytes: 0,
    declaredVersion: "?",
    origin: "?",
    status: "ok",
    operations: 0,
    tools: 0,
    skipped: [],
    problems: [],
    callsPlanned: 0,
    ...emptyPass(),
    minimal: emptyPass(),
    timings: {},
  };
  let scratch: string | undefined;
  let file = job.file;
  try {
    if (file.endsWith(".gz")) {
      scratch = mkdtempSync(join(tmpdir(), "omb-corpus-"));
      const target = join(scratch, basename(file, ".gz"));
      writeFileSync(target, gunzipSync(readFileSync(file)));
      file = target;
    }
    result.bytes = statSync(file).size;
    const raw = readDocument(file);
    result.declaredVersion = declaredVersion(raw);
    result.origin = originOf(raw, result.declaredVersion);
    result.operations = countOperations(raw);

    // 1. Load and build: a model, or a BridgeError with coded diagnostics; anything else is a crash.
    void send({ phase: "load" });
    let model: BridgeModel;
    const loadStart = performance.now();
    try {
      // Output schemas (off by default) are planned too, so every one of them is compiled below.
      model = await library.buildModel(file, { cache: false, outputSchemas: true });
    } catch (error) {
      result.timings.load = ms(loadStart);
      if (error instanceof library.BridgeError && error.diagnostics.every(isClearDiagnostic)) {
        result.status = "diagnosed";
        result.diagnostics = error.diagnostics
          .slice(0, 5)
          .map((d) => `${d.code}${d.pointer ? ` ${d.pointer}` : ""}: ${d.message}`.slice(0, 500));
      } else {
        result.status = "crashed";
        result.crash = String((error as Error)?.stack ?? error).slice(0, 2000);
      }
      return result;
    }
    result.timings.load = ms(loadStart);
    result.tools = model.tools.length;
    result.specVersion = model.info.specVersion;
    void send({ phase: "loaded", tools: model.tools.length });

    // 2. Every tool: name, uniqueness, schemas compiling in Ajv 2020 and in the SDK client's validator.
    const checkStart = performance.now();
    const ajv = createAjv();
    const sdkValidator = new AjvJsonSchemaValidator();
    checkTools(model, ajv, sdkValidator, result.problems);
    result.skipped = model.diagnostics
      .filter((d) => d.code === "OMB_OPERATION_SKIPPED")
      .map((d) => `${d.pointer ?? ""}: ${d.message}`.slice(0, 300));
    if (result.operations !== result.tools + result.skipped.length) {
      result.problems.push({
        kind: "accounting",
        message: `${result.operations} operations in the spec, ${result.tools} tools + ${result.skipped.length} skipped`,
      });
    }
    result.timings.check = ms(checkStart);
    if (!job.calls) return result;

    // 3. Calls through a real MCP client and the bridge, judged by Prism.
    const chosen = chooseTools(model.tools, job.maxCalls);
    result.callsPlanned = chosen.length;
    if (chosen.length === 0) return result;
    void send({ phase: "prism" });
    const prismStart = performance.now();
    let prism: JudgeServer;
    try {
      prism = job.prismCli ? await startPrism(file, job.prismStartMs) : await hostedPrism(job.id);
    } catch (error) {
      result.timings.prism = ms(prismStart);
      result.prismError = String((error as Error).message).slice(0, 1500);
      return result;
    }
    result.timings.prism = ms(prismStart);
    void send({ phase: "calls", calls: chosen.length * PASSES.length });
    const callStart = performance.now();
    try {
      const judge = { server: prism, restart: () => restartPrism(job, file, judge.server) };
      await callTools(library, model, chosen, judge, ajv, job, result);
    } finally {
      result.timings.calls = ms(callStart);
      await prism.stop();
    }
    return result;
  } catch (error) {
    result.status = "crashed";
    result.crash = `harness: ${String((error as Error)?.stack ?? error).slice(0, 2000)}`;
    return result;
  } finally {
    result.timings.total = ms(started);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

function ms(since: number): number {
  return Math.round(performance.now() - since);
}

function readDocument(file: string): Record<string, unknown> {
  const text = readFileSync(file, "utf8");
  const parsed: unknown = /\.ya?ml$/i.test(file) ? parseYaml(text, { maxAliasCount: -1 }) : JSON.parse(text);
  return parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
}

function declaredVersion(doc: Record<string, unknown>): string {
  if (doc.swagger !== undefined) return String(doc.swagger);
  if (doc.openapi !== undefined) return String(doc.openapi);
  return "?";
}

/** The format the spec was first written in: APIs.guru records it in `info.x-origin`. */
export function originOf(doc: Record<string, unknown>, declared: string): string {
  const info = doc.info as Record<string, unknown> | undefined;
  const origins = info?.["x-origin"];
  const last = Array.isArray(origins) ? (origins.at(-1) as Record<string, unknown> | undefined) : undefined;
  if (last && typeof last.format === "string") {
    const version = String(last.version ?? "");
    if (last.format === "swagger" && version === "2.0") return "2.0";
    if (last.format === "openapi" && version.startsWith("3.1")) return "3.1";
    if (last.format === "openapi" && version.startsWith("3.0")) return "3.0";
    if (last.format === "openapi" && version === "2.0") return "2.0";
    return `${last.format} ${version}`.trim();
  }
  if (declared === "2.0") return "2.0";
  return declared.startsWith("3.1") ? "3.1" : declared.startsWith("3.0") ? "3.0" : declared;
}

/** Operations as the spec declares them: every HTTP method of every path item (local `$ref`s followed). */
export function countOperations(doc: Record<string, unknown>): number {
  const paths = doc.paths;
  if (paths === null || typeof paths !== "object") return 0;
  let count = 0;
  for (const raw of Object.values(paths as Record<string, unknown>)) {
    let item = raw as Record<string, unknown> | null;
    for (
      let hops = 0;
      item && typeof item.$ref === "string" && item.$ref.startsWith("#/") && hops < 10;
      hops++
    ) {
      item = resolvePointer(doc, item.$ref) as Record<string, unknown> | null;
    }
    if (item === null || typeof item !== "object") continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation !== null && typeof operation === "object" && !Array.isArray(operation)) count++;
    }
  }
  return count;
}

function resolvePointer(doc: unknown, ref: string): unknown {
  let node = doc;
  for (const token of ref.slice(2).split("/")) {
    const key = decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object") return null;
    node = (node as Record<string, unknown>)[key];
  }
  return node ?? null;
}

function isClearDiagnostic(d: { code?: unknown; message?: unknown }): boolean {
  return (
    typeof d.code === "string" &&
    /^OMB_[A-Z0-9_]+$/.test(d.code) &&
    typeof d.message === "string" &&
    d.message.trim() !== ""
  );
}

function createAjv(): Ajv2020 {
  // validateSchema (the default) checks each schema against the 2020-12 meta-schema first.
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  ajvFormats.default(ajv);
  return ajv;
}

function checkTools(
  model: BridgeModel,
  ajv: Ajv2020,
  sdkValidator: AjvJsonSchemaValidator,
  problems: SpecProblem[],
): void {
  const seen = new Map<string, string>();
  for (const tool of model.tools) {
    if (!TOOL_NAME.test(tool.name))
      problems.push({ kind: "name", tool: tool.name, message: "invalid tool name" });
    const key = tool.name.toLowerCase();
    const other = seen.get(key);
    if (other !== undefined) {
      problems.push({ kind: "duplicate", tool: tool.name, message: `same name as ${other} (ignoring case)` });
    }
    seen.set(key, tool.name);
    const schemas: [string, Record<string, unknown> | undefined][] = [
      ["input", tool.inputSchema],
      ["output", tool.outputSchema],
    ];
    for (const [which, schema] of schemas) {
      if (schema === undefined) continue;
      const shape = rootShapeProblem(schema, which === "input");
      if (shape) problems.push({ kind: "schema", tool: tool.name, message: `${which} schema: ${shape}` });
      try {
        ajv.compile(schema);
      } catch (error) {
        problems.push({
          kind: "schema",
          tool: tool.name,
          message: `${which} schema does not compile in Ajv 2020: ${(error as Error).message}`.slice(0, 400),
        });
      }
      try {
        sdkValidator.getValidator(schema);
      } catch (error) {
        problems.push({
          kind: "schema",
          tool: tool.name,
          message:
            `${which} schema does not compile in the SDK's AjvJsonSchemaValidator: ${(error as Error).message}`.slice(
              0,
              400,
            ),
        });
      }
    }
  }
}

function rootShapeProblem(schema: Record<string, unknown>, input: boolean): string | undefined {
  if (schema.type !== "object") return "root is not type: object";
  for (const keyword of ["oneOf", "anyOf", "allOf"]) {
    if (keyword in schema) return `root has ${keyword}`;
  }
  if (input && schema.additionalProperties !== false) return "root allows additional properties";
  return undefined;
}

/** Every tool, or `max` of them at evenly spaced positions in document order (a fixed rule). */
export function chooseTools<T>(tools: T[], max: number): T[] {
  if (max <= 0 || tools.length <= max) return tools;
  const chosen: T[] = [];
  for (let i = 0; i < max; i++) chosen.push(tools[Math.floor(((i + 0.5) * tools.length) / max)]!);
  return chosen;
}

/** A credential for every scheme, in the form the scheme wants (Prism checks their presence). */
function credentialsFor(model: BridgeModel): Record<string, string> {
  const auth: Record<string, string> = {};
  for (const [name, scheme] of Object.entries(model.securitySchemes)) {
    if (scheme.type === "http" && scheme.scheme.toLowerCase() === "basic") auth[name] = "user:password";
    else if (scheme.type === "apiKey") auth[name] = "corpus-api-key";
    else auth[name] = "corpus-token";
  }
  return auth;
}

/**
 * What an operator configures for the parameters that look like credentials (the bridge never
 * takes them from the model): a `--header` for each header one, and for query and cookie ones,
 * which no option sends, `--allow-credential-arguments` (the generated arguments are sent).
 */
function credentialParametersFor(model: BridgeModel): { headers: Record<string, string>; allowed: string[] } {
  const headers: Record<string, string> = {};
  const allowed = new Set<string>();
  for (const tool of model.tools) {
    for (const binding of tool.http.parameters) {
      if (binding.credential === undefined) continue;
      // A name no HTTP header can have is refused by --header: the argument is allowed instead.
      if (binding.in === "header" && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(binding.name))
        headers[binding.name] = "corpus-credential";
      else allowed.add(binding.name);
    }
  }
  return { headers, allowed: [...allowed] };
}

const MAX_PRISM_RESTARTS = 30;

interface Recorder {
  dispatcher: Dispatcher;
  exchanges: Exchange[];
  close(): Promise<void>;
}

/** A dispatcher that sends through a keep-alive Agent and keeps what went out and what came back. */
function createRecorder(origin: string): Recorder {
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 8 });
  const exchanges: Exchange[] = [];
  const recorder = {
    async request(options: Dispatcher.RequestOptions) {
      if (String(options.origin) !== origin)
        throw new Error(`request to ${String(options.origin)}, not to Prism`);
      const exchange: Exchange = {
        method: String(options.method),
        path: options.path,
        headers: Object.fromEntries(
          Object.entries((options.headers ?? {}) as Record<string, string>).map(([k, v]) => [k, String(v)]),
        ),
        body: describeBody(options.body),
      };
      exchanges.push(exchange);
      const response = await agent.request(options);
      const bytes = Buffer.from(await response.body.arrayBuffer());
      exchange.status = response.statusCode;
      const type = response.headers["content-type"];
      exchange.responseType = Array.isArray(type) ? type.join(", ") : type;
      exchange.responseBody = bytes.subarray(0, 6000).toString("utf8");
      return { ...response, body: Readable.from([bytes]) };
    },
    close: () => agent.close(),
  };
  return {
    dispatcher: recorder as unknown as Dispatcher,
    exchanges,
    close: () => agent.close(),
  };
}

function describeBody(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body.slice(0, 1500);
  if (body instanceof Uint8Array)
    return `<${body.byteLength} bytes> ${Buffer.from(body).subarray(0, 200).toString("utf8")}`;
  if (typeof (body as FormData).entries === "function") {
    // undici's FormData (not the global one).
    const parts: string[] = [];
    for (const [name, value] of (body as FormData).entries()) {
      parts.push(
        typeof value === "string" ? `${name}=${value.slice(0, 100)}` : `${name}=<file ${value.type}>`,
      );
    }
    return `multipart: ${parts.join(", ")}`.slice(0, 1500);
  }
  return `<${typeof body}>`;
}

interface Session {
  client: Client;
  recorder: Recorder;
  close(): Promise<void>;
}

/** A bridge over the model against Prism at `url`, and a real MCP client connected to it in memory. */
async function openSession(
  library: Library,
  model: BridgeModel,
  url: string,
  job: SpecJob,
): Promise<Session> {
  const recorder = createRecorder(url);
  const configured = credentialParametersFor(model);
  const server = library.createBridgeServer(model, {
    baseUrl: url,
    auth: credentialsFor(model),
    headers: configured.headers,
    allowCredentialArguments: configured.allowed,
    env: {},
    dispatcher: recorder.dispatcher,
    timeoutMs: job.callTimeoutMs,
    // Each call is judged on its own: no retries, and no breaker opened by earlier answers.
    retry: { retries: 0 },
    circuitBreaker: false,
    // Every operation as its own tool: the corpus judges each tool (auto may choose discovery).
    mode: "tools",
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "openapi-mcp-bridge-corpus", version: "1.0.0" });
  await client.connect(clientTransport);
  return {
    client,
    recorder,
    async close() {
      await client.close();
      await server.close();
      await recorder.close();
    },
  };
}

async function callTools(
  library: Library,
  model: BridgeModel,
  chosen: ToolNode[],
  judge: { server: JudgeServer; restart: () => Promise<JudgeServer> },
  ajv: Ajv2020,
  job: SpecJob,
  result: SpecResult,
): Promise<void> {
  let session = await openSession(library, model, judge.server.url, job);
  try {
    // tools/list through the client (all pages): the client compiles every output schema here.
    const listed: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await session.client.listTools(cursor === undefined ? {} : { cursor });
      listed.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    if (listed.length !== model.tools.length) {
      result.problems.push({
        kind: "accounting",
        message: `tools/list gave ${listed.length} tools, the model has ${model.tools.length}`,
      });
    }
    // Arguments are made for the input schema the client lists, as a model makes them: the
    // runtime serves a tool without the parameters its configuration fills (filled-parameters.ts).
    const listedSchemas = new Map(listed.map((tool) => [tool.name, tool.inputSchema]));
    let restarts = 0;
    // Each tool twice: with every argument the generator makes, then with the required ones only.
    const calls = chosen.flatMap((tool) => PASSES.map((pass) => ({ tool, pass })));
    const passResults: Record<CallPass, PassResult> = { full: result, minimal: result.minimal! };
    for (const [index, { tool, pass }] of calls.entries()) {
      const out = passResults[pass];
      const served = {
        ...tool,
        inputSchema: (listedSchemas.get(tool.name) ?? tool.inputSchema) as ToolNode["inputSchema"],
      };
      const failure = await callOne(session.client, served, pass, ajv, session.recorder, job, out);
      if (!failure) continue;
      out.failures.push(failure);
      if (failure.exchange?.status !== undefined || failure.cause.startsWith("not sent")) continue;
      if (failure.cause.startsWith("harness")) continue;
      // No answer: Prism crashed (or hangs) on this request. Carry on with a fresh Prism and bridge.
      failure.cause = "no answer from Prism (it crashed or hung on this request)";
      if (index === calls.length - 1) break;
      if (++restarts > MAX_PRISM_RESTARTS) {
        result.prismError = `Prism stopped answering ${restarts} times; ${calls.length - index - 1} calls not made`;
        break;
      }
      try {
        judge.server = await judge.restart();
      } catch (error) {
        result.prismError = `Prism did not restart: ${(error as Error).message}`.slice(0, 1500);
        break;
      }
      await session.close();
      session = await openSession(library, model, judge.server.url, job);
    }
  } finally {
    await session.close();
  }
}

/** The passes, in the order each tool is called. */
const PASSES: CallPass[] = ["full", "minimal"];

async function callOne(
  client: Client,
  tool: ToolNode,
  pass: CallPass,
  ajv: Ajv2020,
  recorder: Recorder,
  job: SpecJob,
  result: PassResult,
): Promise<CallFailure | undefined> {
  let validate: (value: unknown) => boolean;
  let validateErrors = () => "";
  try {
    const compiled = ajv.compile(tool.inputSchema);
    validate = (value) => compiled(value) === true;
    validateErrors = () => ajv.errorsText(compiled.errors, { dataVar: "args" });
  } catch {
    // Reported as a tool problem already; the bridge's own validation still runs.
    validate = () => true;
  }
  const accepts = (schema: Record<string, unknown>, value: unknown) => {
    try {
      const sub = ajv.compile({ ...schema, $defs: tool.inputSchema.$defs ?? {} });
      return sub(value) === true;
    } catch {
      return true;
    }
  };
  // The minimal call: only what the schema requires, at every depth (optionalDepth -1).
  let args = generateArguments(
    tool.inputSchema,
    pass === "minimal" ? { accepts, optionalDepth: -1 } : { accepts },
  );
  let argsValid = validate(args);
  if (!argsValid && pass === "full") {
    const fewer = generateArguments(tool.inputSchema, { accepts, optionalDepth: 0 });
    if (validate(fewer)) {
      args = fewer;
      argsValid = true;
    }
  }
  const argsError = argsValid ? undefined : validateErrors().slice(0, 300);
  const before = recorder.exchanges.length;
  let outcome: CallToolResult;
  result.callsMade++;
  const base = { tool: tool.name, operation: `${tool.http.method.toUpperCase()} ${tool.http.path}` };
  try {
    outcome = (await client.callTool({ name: tool.name, arguments: args }, undefined, {
      timeout: job.callTimeoutMs + 5000,
    })) as CallToolResult;
  } catch (error) {
    return {
      ...base,
      cause: "client error",
      message: String((error as Error).message).slice(0, 500),
      args: clipJson(args),
      exchange: recorder.exchanges[before],
    };
  }
  const exchange = recorder.exchanges.length > before ? recorder.exchanges.at(-1) : undefined;
  if (!exchange) {
    const text = textOf(outcome).slice(0, 600);
    // The bridge refused arguments that are invalid: right, and nothing reached Prism.
    if (!argsValid) {
      result.callsMade--;
      result.callsNotSent = (result.callsNotSent ?? 0) + 1;
    }
    return {
      ...base,
      cause: argsValid ? "not sent: bridge refused valid arguments" : "harness: generated arguments invalid",
      message: argsValid ? text : `${argsError}\n${text}`,
      args: clipJson(args),
    };
  }
  if (exchange.status === undefined) {
    return {
      ...base,
      cause: "no answer from Prism",
      message: textOf(outcome).slice(0, 600),
      args: clipJson(args),
      exchange,
    };
  }
  if (/#/.test(tool.http.path.replace(/\{[^}]*\}/g, ""))) {
    // Prism routes by the spec's path key, fragment included; the request (rightly) has none.
    result.callsUnjudgeable = (result.callsUnjudgeable ?? 0) + 1;
    result.callsMade--;
    return undefined;
  }
  const problem = prismProblem(exchange);
  if (problem?.side === "response") {
    // The request passed Prism's validation; Prism then failed to produce a valid answer.
    result.callsAccepted++;
    result.prismResponseErrors = (result.prismResponseErrors ?? 0) + 1;
    return undefined;
  }
  if (problem) {
    return {
      ...base,
      cause: argsValid ? problem.cause : `harness: generated arguments invalid (${problem.cause})`,
      message: argsValid ? problem.message : `${argsError}\n${problem.message}`,
      args: clipJson(args),
      exchange: trimExchange(exchange),
    };
  }
  result.callsAccepted++;
  if (exchange.status < 200 || exchange.status >= 300) result.acceptedNon2xx++;
  else if (outcome.isError && result.outputMismatches.length < 20) {
    result.outputMismatches.push({ ...base, message: textOf(outcome).slice(0, 400) });
  }
  return undefined;
}

/** Prism's own error (a violation, or a request it could not route or handle), or undefined. */
/**
 * Prism's own error (a violation, or a request it could not route or handle), or undefined.
 * `side: "response"` marks errors Prism raises after the request passed validation: its mock
 * answer broke the spec (an example off its schema: `VIOLATIONS` on `response` only), no
 * response to mock, or a body it cannot serialise (XML).
 */
export function prismProblem(
  exchange: Exchange,
): { cause: string; message: string; side: "request" | "response" } | undefined {
  if (!exchange.responseBody || !/json/i.test(exchange.responseType ?? "")) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(exchange.responseBody);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== "object") return undefined;
  const body = parsed as Record<string, unknown>;
  if (typeof body.type !== "string" || !body.type.startsWith(PRISM_ERROR_PREFIX)) return undefined;
  const type = body.type.slice(PRISM_ERROR_PREFIX.length);
  const validation = Array.isArray(body.validation) ? (body.validation as Record<string, unknown>[]) : [];
  if (validation.length > 0) {
    const keys = [
      ...new Set(
        validation.map((v) => {
          const location = Array.isArray(v.location) ? (v.location as string[]) : [];
          return `${location[0] ?? "?"} ${String(v.code ?? "?")}`;
        }),
      ),
    ].sort();
    const messages = validation
      .map((v) => `${Array.isArray(v.location) ? v.location.join(".") : ""}: ${String(v.message ?? "")}`)
      .join("; ");
    const side = keys.every((k) => k.startsWith("response ")) ? "response" : "request";
    return {
      cause: `${exchange.status} ${type}: ${keys.join(" + ")}`,
      message: messages.slice(0, 800),
      side,
    };
  }
  return {
    cause: `${exchange.status} ${type}`,
    message: `${String(body.title ?? "")}: ${String(body.detail ?? "")}`.slice(0, 800),
    side:
      RESPONSE_SIDE_ERRORS.has(type) || (type === "UNKNOWN" && /serializer/i.test(String(body.title ?? "")))
        ? "response"
        : "request",
  };
}

/** Prism errors about the answer it was about to give, raised after the request was validated. */
const RESPONSE_SIDE_ERRORS = new Set(["NO_RESPONSE_RESPONSE_DEFINED", "NO_COMPLEX_OBJECT_TEXT"]);

function trimExchange(exchange: Exchange): Exchange {
  const { responseBody, ...rest } = exchange;
  return { ...rest, responseBody: responseBody?.slice(0, 1200) };
}

function clipJson(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 1500 ? `${text.slice(0, 1500)}...` : text;
}

function textOf(result: CallToolResult): string {
  return (result.content ?? []).map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");
}

async function main(): Promise<void> {
  const parsed = JSON.parse(process.argv[2] ?? "{}") as SpecJob | SpecJob[];
  const jobs = Array.isArray(parsed) ? parsed : [parsed];
  const job = jobs[0]!;
  if (!job.prismCli) listenForHostedPrism();
  // OMB_CORPUS_DIST: another build of the package to test (default: the repository's dist/).
  const dist = process.env.OMB_CORPUS_DIST ?? join(job.root, "dist");
  const library = (await import(pathToFileURL(join(dist, "index.js")).href)) as Library;
  if (!Array.isArray(parsed)) {
    await send({ result: await checkSpec(job, library) });
    return;
  }
  // A batch (run.ts --batch): one spec after another, each announced first.
  for (const next of jobs) {
    await send({ begin: next.id });
    await send({ result: await checkSpec(next, library) });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
      process.exit(2);
    },
  );
}
