/**
 * The BridgeModel: one plain-JSON description of an API's tools, shared by the live bridge
 * (src/runtime), the code generator and the library. Everything here must survive
 * `JSON.parse(JSON.stringify(model))` unchanged: no functions, classes, Maps, undefined-only
 * fields or cycles.
 */

/**
 * Bumped on any change that an older runtime could misread. 2: the strict profile's
 * `x-omb-optional` keyword and the `authorizationHeader` credential scheme. 3: parameters
 * marked `credential` (never taken from the model unless the operator allows it) and
 * `constant` (sent by the bridge, not an argument). 4: body properties' and parameters' `fill`
 * (sent by the bridge when the call leaves them out) and the body's `extraArgument`. Not bumped
 * for an optional field an older runtime can ignore (`http.longRunning`: without it, a 202 is
 * still followed when its answer names a status).
 */
export const IR_VERSION = 4;

/**
 * Input-schema keyword of an object schema made for a strict client profile (`openai`), where
 * every property must be listed in `required`: the names of the properties that the spec left
 * optional (made nullable). The runtime treats `null` for them as absent and never sends it.
 */
export const OPTIONAL_PROPERTIES_KEYWORD = "x-omb-optional";

/**
 * Set (not enumerable, so never copied by a spread nor written by JSON.stringify) on each tool
 * read from a lazy saved model (model/lazy-model.ts) to the search index saved with it, and
 * removed when the tool is assigned to: a tool that still carries its model's index is the very
 * tool that index was built from, so search trusts its saved terms without hashing its words
 * (which would read every tool's schemas).
 */
export const SAVED_WITH_INDEX: unique symbol = Symbol.for("openapi-mcp-bridge/saved-with-index");

/** A JSON Schema (2020-12 dialect) kept as plain JSON. */
export type JsonSchema = { [keyword: string]: JsonValue };

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type SpecVersion = "2.0" | "3.0" | "3.1";

export interface BridgeModel {
  irVersion: typeof IR_VERSION;
  info: InfoNode;
  /** Candidate base URLs, first is the default. Variables already have defaults resolved. */
  servers: ServerNode[];
  /** Security schemes by their name in the spec. */
  securitySchemes: Record<string, SecuritySchemeNode>;
  tools: ToolNode[];
  /** Warnings and infos found while planning (never fatal ones: those stop planning). */
  diagnostics: Diagnostic[];
  /**
   * The tools' search index for discovery mode (runtime/discovery/search.ts), saved with the
   * model so that a saved model or a generated project searches without rebuilding it. Each
   * tool's entry keeps a hash of the words it was made of, and a tool whose words changed since
   * (runtime/discovery/search/saved-index.ts) is indexed afresh. Absent: the runtime builds it
   * on first use.
   */
  searchIndex?: SearchIndexNode;
  /**
   * Each tool's contract digest (runtime/server/contract.ts), saved by the `model` command so
   * that a start from the saved model does not compute them for its first tools/list. Each is
   * kept with a hash of the tool's JSON text and used only for a tool whose text still hashes
   * the same (runtime/server/saved-digests.ts); any other tool's digest is computed.
   */
  contractDigests?: ContractDigestsNode;
  /**
   * The most tools the client of the profile the model was planned for handles well
   * (`--profile cursor`: about 40; generator/compile/profile.ts). Past it, `--mode auto` serves
   * discovery, as it does past its own 128. Absent: no client limit below auto's.
   */
  clientToolLimit?: ClientToolLimitNode;
}

/** A client's tool limit: how many, and why, in words for the start-up line. */
export interface ClientToolLimitNode {
  /** The profile that set it (`cursor`). */
  profile: string;
  count: number;
  why: string;
}

/** Saved contract digests: the digest of each tool by name, and a hash of the tool's JSON. */
export interface ContractDigestsNode {
  /** The digest's definition; digests of another version are not used. */
  version: number;
  tools: { [name: string]: { digest: string; toolHash: string } };
}

/**
 * A search index over a model's tools: plain JSON, laid out by runtime/discovery/search.ts,
 * which alone reads it. `version` names the layout; an index of another layout is rebuilt.
 */
export interface SearchIndexNode {
  version: number;
  [key: string]: JsonValue;
}

export interface InfoNode {
  title: string;
  version: string;
  description?: string;
  /** The spec's own version family: what the document said before normalisation. */
  specVersion: SpecVersion;
  /** Where the spec came from (a path or URL), for messages. */
  source?: string;
}

export interface ServerNode {
  /** URL template as written, e.g. `https://{region}.example.com/v1`. */
  url: string;
  description?: string;
  variables: Record<string, ServerVariableNode>;
}

export interface ServerVariableNode {
  default: string;
  enum?: string[];
  description?: string;
}

export type SecuritySchemeNode =
  | { type: "apiKey"; in: "header" | "query" | "cookie"; name: string; description?: string }
  | { type: "http"; scheme: string; bearerFormat?: string; description?: string }
  | { type: "oauth2"; flows: JsonValue; description?: string }
  | { type: "openIdConnect"; openIdConnectUrl: string; description?: string }
  | { type: "mutualTLS"; description?: string };

/**
 * One alternative of an operation's `security`: every scheme named must be satisfied.
 * An operation's requirement list is OR-ed; an empty list means no authentication.
 */
export type SecurityRequirementNode = Record<string, string[]>;

export interface ToolAnnotationsNode {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolNode {
  name: string;
  title: string;
  description: string;
  /** JSON Schema 2020-12, root `type: object`, local `$defs`, no top-level oneOf/anyOf/allOf. */
  inputSchema: JsonSchema;
  /** Present when every 2xx JSON answer shares one schema; root `type: object`. */
  outputSchema?: JsonSchema;
  /** When the 2xx body is not an object, structuredContent wraps it as `{ result: body }`. */
  outputWrapped?: boolean;
  /**
   * The JSON of a successful answer, outlined with typed fields two levels deep: what code
   * mode's signatures say an `api` call gives. Planned only when asked (`resultSchemas`).
   */
  resultSchema?: JsonSchema;
  /**
   * The names of the fields a successful JSON answer holds, breadth first (result-fields.ts):
   * what describe_operations shows so that an agent can pick fields (`fields`) on its first
   * call. Absent when the answer is not JSON or has no named fields.
   */
  resultFields?: ResultFieldsNode;
  annotations: ToolAnnotationsNode;
  http: HttpBindingNode;
  /** Where the operation lives in the (normalised) spec, for diagnostics. */
  source: SourceNode;
  tags: string[];
  deprecated: boolean;
}

/**
 * The field names of a JSON value, without types: `{}` is a scalar (or a value whose fields are
 * not named), `{ list: true }` a list of scalars. Plain data, shared by every tool whose answer
 * has the same schema.
 */
export interface ResultFieldsNode {
  /** The value is a list; `fields`, `links` and `more` are those of each element. */
  list?: true;
  /** Fields that are no links, in the schema's order, each with the names of its own. */
  fields?: Record<string, ResultFieldsNode>;
  /** Fields that link to other endpoints (`*_url`, `href`): many in some APIs, seldom picked. */
  links?: string[];
  /** Fields left unnamed: past the cap on names, or deeper than the names go. */
  more?: number;
}

export interface SourceNode {
  /** JSON pointer to the operation, e.g. `/paths/~1pets~1{petId}/get`. */
  pointer: string;
  operationId?: string;
}

export type HttpMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";

export type ParameterLocation = "path" | "query" | "header" | "cookie";

/**
 * OpenAPI parameter styles, plus `tabDelimited` for Swagger 2.0 `collectionFormat: tsv`, which
 * OpenAPI 3 dropped but real 2.0 specs still use.
 */
export type ParameterStyle =
  | "simple"
  | "label"
  | "matrix"
  | "form"
  | "spaceDelimited"
  | "pipeDelimited"
  | "tabDelimited"
  | "deepObject";

export interface HttpBindingNode {
  method: HttpMethod;
  /** Path template relative to the server URL, e.g. `/pets/{petId}`. */
  path: string;
  parameters: ParameterBindingNode[];
  body?: BodyBindingNode;
  /** Effective security (operation-level, else document-level). */
  security: SecurityRequirementNode[];
  responses: ResponseNode[];
  /** Media types for the Accept header, most preferred first. */
  accept: string[];
  /** Operation- or path-level servers that replace the document's for this operation. */
  servers?: ServerNode[];
  /**
   * The spec says the operation runs on after its answer (a 202, a status header, Azure's
   * `x-ms-long-running-operation`): how to follow it (generator/compile/long-running.ts). The
   * runtime also follows a 202 with a status header that the spec did not announce.
   */
  longRunning?: LongRunningNode;
  /**
   * Element names that hold lists in the operation's XML answers (generator/compile/xml-lists.ts),
   * so one item or none still reads as a list (runtime/results/xml-json.ts).
   */
  xmlLists?: string[];
  /**
   * Boolean properties a success answer always has with this value and an error answer with the
   * other (Slack's `ok`: compile/success-flags.ts): a 2xx with the other value is a failure.
   */
  successFlags?: Record<string, boolean>;
}

/** How the status of a long-running operation is found and its final result read. */
export interface LongRunningNode {
  /**
   * Headers of the accepted answer that name the status to poll, most specific first, lower
   * case: `azure-asyncoperation`, `operation-location`, `location`.
   */
  statusHeaders: string[];
  /**
   * Where the final result is read once the status says it succeeded (Azure's
   * `final-state-via`): `location` (the accepted answer's Location), `original-uri` (the
   * request's URL), `azure-async-operation` / `operation-location` (the status body itself).
   */
  finalStateVia?: "location" | "original-uri" | "azure-async-operation" | "operation-location";
}

export interface ParameterBindingNode {
  /** Argument name in the tool's input schema (may carry a `__query`-style suffix). */
  argument: string;
  /** Name on the wire. */
  name: string;
  in: ParameterLocation;
  required: boolean;
  style: ParameterStyle;
  explode: boolean;
  allowReserved: boolean;
  /**
   * Set when the parameter uses `content` instead of `schema`: the value is serialised in this
   * media type (JSON for `application/json`) and then percent-encoded as one value.
   */
  contentType?: string;
  /** Coarse shape of the value, resolved once so the runtime need not read schemas. */
  shape: ValueShape;
  /**
   * The parameter looks like a credential (compile/credential-parameters.ts): `secret` (a key,
   * token, password) or `signature` (computed per request, as AWS Signature v4's `X-Amz-*`).
   * Its value never comes from the model's arguments unless the operator allows it; the
   * runtime removes it from the input schema (runtime/request/filled-parameters.ts).
   */
  credential?: CredentialKind;
  /**
   * A required parameter whose schema allows one value (`enum: ["DescribeInstances"]`): the
   * bridge sends it, and it is no argument (not in the input schema).
   */
  constant?: JsonValue;
  /**
   * A required query, header or cookie parameter whose schema gives a `default`: an optional
   * argument, sent with this value when the call leaves it out.
   */
  fill?: JsonValue;
  /**
   * An optional query or header parameter the API declares on nearly every operation (Google's
   * `alt`, `prettyPrint`, `quotaUser`: compile/api-wide-parameters.ts): an option of the API, not
   * of this operation, so code mode's one-line signatures name it after the operation's own.
   */
  apiWide?: true;
}

export type CredentialKind = "secret" | "signature";

export type ValueShape = "primitive" | "array" | "object";

export interface BodyBindingNode {
  mediaType: string;
  required: boolean;
  /**
   * `properties`: the body is an object whose properties are top-level arguments (see
   * `properties`); `value`: the whole body is the one argument named `argument`.
   */
  mode: "properties" | "value";
  /** For `value` mode: the argument holding the body. */
  argument?: string;
  /** For `properties` mode: argument name → property name in the body. */
  properties?: BodyPropertyNode[];
  /**
   * For `properties` mode, when the body's schema allows properties beyond those it lists
   * (`additionalProperties: true` or a schema): the argument, an object, whose entries are
   * sent in the body as given beside the listed ones.
   */
  extraArgument?: string;
  /** Per-property encoding for form and multipart bodies. */
  encoding?: Record<string, BodyEncodingNode>;
  /** How the argument values are turned into bytes. */
  kind: BodyKind;
  /** Body media types the operation also accepts, for information. */
  alternatives?: string[];
}

export type BodyKind = "json" | "form" | "multipart" | "text" | "binary";

export interface BodyPropertyNode {
  argument: string;
  name: string;
  shape: ValueShape;
  /** True for `format: binary` / `contentEncoding` file parts (multipart) given as base64. */
  file?: boolean;
  /**
   * A required property whose schema gives a `default` or allows one value (`const`, `enum` of
   * one), as Graph's `@odata.type`: an optional argument, and sent with this value whenever the
   * body is sent without it.
   */
  fill?: JsonValue;
}

export interface BodyEncodingNode {
  contentType?: string;
  style?: ParameterStyle;
  explode?: boolean;
  allowReserved?: boolean;
}

export interface ResponseNode {
  /** `200`, `2XX` or `default`. */
  status: string;
  description: string;
  mediaTypes: string[];
}

export type DiagnosticSeverity = "error" | "warning" | "info";

export interface Diagnostic {
  /**
   * Stable code, e.g. `OMB_SPEC_INVALID`: one of model/diagnostic-codes.ts, where diagnostics are
   * created (a string here, so a model saved by another version still reads).
   */
  code: string;
  severity: DiagnosticSeverity;
  message: string;
  /** File or URL the diagnostic is about. */
  file?: string;
  /** JSON pointer inside that file. */
  pointer?: string;
  /** What to do about it. */
  hint?: string;
  /** The tool it is about, when there is one (lint findings). */
  tool?: string;
}
