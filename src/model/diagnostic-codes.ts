/**
 * The one vocabulary of diagnostics: every code the bridge reports, with what it means, the
 * severity it has unless its creator says otherwise, and the fix to suggest. createDiagnostic
 * takes a DiagnosticCode, so a code that is not here does not compile; lint findings are
 * diagnostics of the OMB_LINT_* codes; docs/diagnostics.md's table of codes is rendered from this object
 * (scripts/codes-table.mjs) and a unit test fails when the two disagree.
 *
 * A diagnostic does not get `fix` as its hint automatically: saved models and CLI output carry
 * only the hints their creators wrote (often more precise: the flag, the path), and stay the
 * same from one version to the next; docs/diagnostics.md is where every fix is listed.
 */
import type { DiagnosticSeverity } from "./types.js";

export interface DiagnosticCodeEntry {
  /** What the code means, one sentence. */
  readonly title: string;
  /** The severity a diagnostic of this code has when its creator gives none. */
  readonly severity: DiagnosticSeverity;
  /** What to do about it. */
  readonly fix: string;
  /** Why the code is listed though no source file reports it (yet). */
  readonly reserved?: string;
  /**
   * A spec warning the operator hears of without --verbose: at start-up, from `tools` and from
   * `lint` (what the lenient loader repaired or left out, and tools that cannot be called).
   */
  readonly announced?: true;
}

export const DIAGNOSTIC_CODES = {
  // The spec: reading, parsing, validating and converting it.
  OMB_SPEC_NOT_FOUND: {
    title: "The spec file does not exist, or the source is neither a path, an http(s) URL nor -",
    severity: "error",
    fix: "check the path (relative paths are resolved from the current directory); give a file path, an http(s) URL or - for standard input",
  },
  OMB_SPEC_MISSING: {
    title: "serve was given no spec (and no --config): a usage error, exit code 2",
    severity: "error",
    fix: "give a spec file, an http(s) URL, - for stdin or a saved model; several specs, or --config FILE, for several APIs",
  },
  OMB_SPEC_UNREADABLE: {
    title: "The spec file (or standard input) exists but cannot be read: a directory, or permission denied",
    severity: "error",
    fix: "give a readable file, not a directory; check its permissions",
  },
  OMB_SPEC_FETCH: {
    title: "The spec URL could not be fetched: host unreachable, a timeout or a non-2xx status",
    severity: "error",
    fix: "check the URL and that the host is reachable; or download the spec and give the file",
  },
  OMB_SPEC_PARSE: {
    title: "The spec is not valid JSON or YAML (the message has the line and column)",
    severity: "error",
    fix: "fix the syntax at the line and column given",
  },
  OMB_SPEC_VERSION: {
    title:
      'The document is not Swagger 2.0, OpenAPI 3.0.x or 3.1.x (no "swagger"/"openapi" field, or another version)',
    severity: "error",
    fix: 'give an OpenAPI document; write the version as a string ("3.1.0", "2.0") so YAML does not read a number',
  },
  OMB_SPEC_INVALID: {
    title: "The document does not match the OpenAPI schema of its version",
    severity: "error",
    fix: "fix the spec at the pointer given; or skip the check with --no-validate (validate: false) and let the bridge plan what it can",
  },
  OMB_SPEC_IGNORED: {
    title:
      "A schema problem the bridge does not depend on (e.g. a property OpenAPI does not define); ignored",
    severity: "warning",
    fix: "remove or correct the property; the bridge works without it",
  },
  OMB_SPEC_DUPLICATE_OPERATION_ID: {
    title: "Two operations share an operationId; the second tool gets another name",
    severity: "warning",
    fix: "give every operation its own operationId",
  },
  OMB_SPEC_PATH_PARAM: {
    title: "A path template variable and the path parameters do not match (undeclared, or not in the path)",
    severity: "warning",
    fix: "declare one path parameter for each {name} in the path, and no other",
  },
  OMB_SPEC_TOO_LARGE: {
    title:
      "The spec, or a file or URL one of its $refs names, is larger than the bridge reads (128 MiB each, 256 MiB together by default)",
    severity: "error",
    fix: "check that the source is the spec meant; raise the limit with --max-spec-bytes N (maxSpecBytes)",
  },
  OMB_SPEC_TOO_DEEP: {
    title:
      "The document nests objects and arrays deeper than the bridge reads (2,000 levels); the pointer says where",
    severity: "error",
    fix: "flatten the structure at the pointer given, e.g. with named components and $refs; no real API needs that depth",
  },
  OMB_SPEC_REPAIRED: {
    title:
      'Numbers or booleans written as strings where the keyword takes only those ("maximum": "50") were read as meant; one warning a kind',
    severity: "warning",
    announced: true,
    fix: "write numbers and booleans without quotes; --strict refuses the spec instead",
  },
  OMB_SWAGGER2_CONVERT: {
    title: "A part of a Swagger 2.0 spec has no OpenAPI 3 equivalent; it is dropped or kept as is",
    severity: "warning",
    fix: "convert that part by hand, or ignore the warning if the tools do not need it",
  },

  // $refs
  OMB_REF_UNRESOLVED: {
    title:
      "A $ref points to nothing: a missing file, a missing pointer, an unsupported scheme or a failed fetch",
    severity: "error",
    fix: "correct the $ref (the path is relative to the file that holds it), or add what it points to",
  },
  OMB_REF_NETWORK: {
    title: "A $ref to an http(s) URL was refused: network references are off by default",
    severity: "error",
    fix: "pass --allow-network-refs (allowNetworkRefs: true) to fetch them, or bundle the spec into one file",
  },
  OMB_REF_FILE: {
    title:
      "A $ref to a local file was refused: a spec fetched from a URL may not read local files, or file refs are off",
    severity: "error",
    fix: "bundle the referenced files into the spec, or load the spec from a local file",
  },

  OMB_REF_OUTSIDE_ROOT: {
    title:
      "A file $ref leads (after symlinks) outside the spec's own folder tree and every folder named with --ref-root",
    severity: "error",
    fix: "move the file under the spec's folder, or name its folder with --ref-root DIR (refRoots)",
  },
  OMB_REF_NOT_FILE: {
    title:
      "A $ref names something that is not a regular file: a device (/dev/zero), a FIFO, a socket or a directory",
    severity: "error",
    fix: "point the $ref at a spec document, a regular file",
  },
  OMB_REF_REDIRECT: {
    title:
      "A network $ref redirects to another host (or from https to http), which --allow-network-refs does not follow",
    severity: "error",
    fix: "point the $ref at the final URL, or download the document next to the spec",
  },

  OMB_REF_LEFT_UNRESOLVED: {
    title:
      "A $ref that no operation reaches (in an x- extension or an unused component) could not be resolved; it was left out, nothing was read",
    severity: "warning",
    announced: true,
    fix: "correct or remove the $ref; --strict refuses the spec instead",
  },

  // Overlays and overrides
  OMB_OVERLAY_INVALID: {
    title: "The overlay file is not an Overlay 1.0 document, or a target is not valid JSONPath",
    severity: "error",
    fix: "write { overlay: 1.0.0, info: { title, version }, actions: [{ target, update | remove }] } with RFC 9535 JSONPath targets",
  },
  OMB_OVERLAY_UNMATCHED: {
    title: "An overlay action's target selects nothing in the spec",
    severity: "warning",
    fix: "check the JSONPath against the spec (Swagger 2.0 specs are matched after conversion to OpenAPI 3)",
  },
  OMB_OVERLAY_UNAPPLIED: {
    title: "An overlay update selects a value that is neither an object nor an array; it is not applied",
    severity: "warning",
    fix: "target the object that holds the value, and update it with an object",
  },
  OMB_OVERRIDES_READ: {
    title: "The --overrides file cannot be read",
    severity: "error",
    fix: "check the path and the file's permissions",
  },
  OMB_OVERRIDES_INVALID: {
    title: "The --overrides file is neither an Overlay 1.0 document nor a valid map of overrides",
    severity: "error",
    fix: "write an Overlay 1.0 document, or a map of operationId → { name, description, hidden, title, annotations }",
  },
  OMB_OVERRIDES_MODEL: {
    title: "--overrides was given with a saved model, which already carries its overrides",
    severity: "error",
    fix: "give the spec to apply other overrides, or build the model again with `model --overrides`",
  },
  OMB_ANNOTATION_IGNORED: {
    title:
      "An annotation that would make a PUT, PATCH or DELETE look safe (readOnlyHint: true, destructiveHint: false) is ignored",
    severity: "warning",
    fix: "drop it from the spec's x-mcp; only an override file may mark a PUT or PATCH non-destructive, and nothing a DELETE",
  },
  OMB_XMCP_INVALID: {
    title: "A field of an x-mcp extension is not valid; the field is ignored",
    severity: "warning",
    fix: "give x-mcp { name, description, title, hidden, annotations } with the types docs/tool-contract.md lists",
  },
  OMB_MCP_HEADER_REFUSED: {
    title:
      "A header parameter asked to be mirrored as Mcp-Param-* (x-mcp-header, mcpHeaders) is not; it stays a plain argument",
    severity: "warning",
    fix: "mirror only header parameters that carry no credential, of one type (string, integer or boolean), under a header-name token used once per tool",
  },
  OMB_OVERRIDE_UNMATCHED: {
    title: "An override names no operation of the spec",
    severity: "warning",
    fix: 'key entries by operationId or by method and path template, e.g. "GET /pets/{petId}"',
  },
  OMB_OVERRIDE_NAME_INVALID: {
    title: "An override's name is not a valid MCP tool name; the tool keeps its derived name",
    severity: "warning",
    fix: "use only letters, digits, _ and -, at most 64 characters",
  },
  OMB_OVERRIDE_NAME_COLLISION: {
    title: "Two overrides give the same tool name (without regard to case); the second gets a suffix",
    severity: "error",
    fix: "give each operation its own name",
  },

  // Planning tools from operations
  OMB_OPERATION_SKIPPED: {
    title: "An operation has no tool: it could not be planned, or an override hides it",
    severity: "warning",
    fix: "fix the operation in the spec at the pointer given (nothing to do for a hidden one)",
  },
  OMB_TOOL_UNUSABLE: {
    title:
      "A tool's input schema does not compile: the tool is listed, and a call of it answers operation_unavailable without sending anything",
    severity: "warning",
    announced: true,
    fix: "fix the operation's parameter or body schema at the pointer given",
  },
  OMB_NAME_COLLISION: {
    title: "Two operations derive the same tool name; the later one gets a suffix",
    severity: "info",
    fix: "give the operations distinct operationIds, or name one with an override",
  },
  OMB_PARAMETER_INVALID: {
    title: "A parameter has no name or no location; it is ignored",
    severity: "warning",
    fix: "give the parameter a name and an in (path, query, header or cookie)",
  },
  OMB_PARAMETER_LOCATION: {
    title: "A parameter is in a location OpenAPI 3 does not define; it is ignored",
    severity: "warning",
    fix: "use path, query, header or cookie; a request body belongs in requestBody",
  },
  OMB_PARAMETER_IGNORED: {
    title:
      "A header parameter the bridge or the HTTP client sets itself (Accept, Content-Type, Authorization, ...) is not an argument",
    severity: "info",
    fix: "nothing to do; describe credentials as a security scheme rather than a header parameter",
  },
  OMB_PARAMETER_STYLE: {
    title: "A parameter has an unknown style; the default style of its location is used",
    severity: "warning",
    fix: "use one of the OpenAPI styles: simple, label, matrix, form, spaceDelimited, pipeDelimited, deepObject",
  },
  OMB_PATH_PARAMETER_UNDECLARED: {
    title: "A {name} in the path has no parameter; it becomes a required string argument",
    severity: "warning",
    fix: "declare the path parameter with its schema and a description",
  },
  OMB_SECURITY_SCHEME: {
    title: "A security scheme is not usable (an unknown type or missing fields) and is ignored",
    severity: "warning",
    fix: "give it a valid type (apiKey with in and name, http with scheme, oauth2, openIdConnect)",
  },
  OMB_AUTHORIZATION_HEADER: {
    title:
      "Operations declare an Authorization header parameter and no security scheme; it is served as a credential",
    severity: "info",
    fix: "configure it with --auth authorizationHeader=VALUE (or OPENAPI_MCP_AUTH_AUTHORIZATIONHEADER); better, declare a security scheme",
  },

  // Client profiles
  OMB_PROFILE_SERVER_NAME: {
    title: "The server name leaves too few characters for tool names under the client profile",
    severity: "warning",
    fix: "give a shorter --server-name",
  },
  OMB_PROFILE_FREE_FORM: {
    title: "A free-form object (a map) cannot be described in OpenAI strict mode; it can only be sent empty",
    severity: "info",
    fix: "give the object its properties in the spec, or use another profile if the tool needs the map",
  },
  OMB_PROFILE_TOOL_COUNT: {
    title: "More tools than the client profile's limit",
    severity: "warning",
    fix: "serve fewer tools (--include-tags, --include-tools, --methods, --read-only) or hide some with x-mcp",
  },
  OMB_PROFILE_NAME: {
    title: "A tool name was shortened to fit the client profile's limit",
    severity: "info",
    fix: "nothing to do, or give a shorter --server-name or a shorter name with an override",
  },

  // Saved models
  OMB_MODEL_PARSE: {
    title: "The model file is not valid JSON",
    severity: "error",
    fix: "save the model again with `model SPEC -o FILE`",
  },
  OMB_MODEL_INVALID: {
    title: "The file is not a bridge model (no irVersion or tools), or a saved model is truncated or corrupt",
    severity: "error",
    fix: "give a model saved by `model SPEC -o FILE`, or the spec itself",
  },
  OMB_MODEL_VERSION: {
    title: "The model was saved by a bridge with another model format (irVersion)",
    severity: "error",
    fix: "build the model again from the spec with this version",
  },
  OMB_MODEL_NO_RESULTS: {
    title: "Code mode serves a saved model without result outlines: its signatures type every answer unknown",
    severity: "warning",
    fix: "save the model with `model SPEC --result-schemas -o FILE` (serving the spec plans them itself)",
  },
  OMB_MODEL_CACHE_UNUSABLE: {
    title:
      "The cached model failed its checks (truncated, corrupt or of another layout); the spec was planned again",
    severity: "warning",
    fix: "nothing to do: the cache entry was written again; if it repeats, check the cache folder's disk",
  },

  // Command-line options and output
  OMB_OPTION: {
    title: "An option's value is not valid (e.g. an unknown method or policy in a tool selection)",
    severity: "error",
    fix: "check the option against the command's --help and docs/serve.md",
  },
  OMB_OPTION_INVALID: {
    title:
      "An option or its environment variable has a bad value (no number, out of range, unknown choice, malformed pair, header or JSON)",
    severity: "error",
    fix: "give the value the hint names; --help lists every option",
  },
  OMB_OPTION_UNKNOWN: {
    title: "A generated server was given a flag or argument it does not take",
    severity: "error",
    fix: "check the spelling against `node dist/index.js --help`",
  },
  OMB_PORT_IN_USE: {
    title: "The HTTP transport cannot listen: another process already uses the port",
    severity: "error",
    fix: "stop the other server, choose another --port (OPENAPI_MCP_PORT), or use --port 0 for a free one",
  },
  OMB_LISTEN_FAILED: {
    title: "The HTTP transport cannot bind the address (permission, an address this machine does not have)",
    severity: "error",
    fix: "use a port from 1024 up, or a --host that is an address of this machine (127.0.0.1, 0.0.0.0)",
  },
  OMB_BASE_URL: {
    title: "--base-url (the library's options.baseUrl) is not an http(s) URL",
    severity: "error",
    fix: "give a full URL such as http://127.0.0.1:8080/v1",
  },
  OMB_AUTH_CONFIG: {
    title: "The credentials configuration (--auth, --auth-config, --oauth-client) is unreadable or not valid",
    severity: "error",
    fix: "check the file (JSON or YAML) and its fields against docs/security.md (Credentials); put secrets in environment variables",
  },
  // Mistakes in how a bridge is started, caught before it serves (check-start.ts)
  OMB_AUTH_SCHEME_UNKNOWN: {
    title:
      "A credential (--auth, --oauth-client, --pass-through-header, the auth config) names a security scheme the spec does not have",
    severity: "error",
    fix: "use a scheme name as the spec writes it (`openapi-mcp-bridge tools SPEC --json` shows each tool's security); for an API whose spec declares none, send the credential with --header",
  },
  OMB_CREDENTIAL_PARAMETER: {
    title:
      "Parameters look like credentials (a key, token, password) and no value is configured: the model may not give them, so they are not sent",
    severity: "warning",
    fix: 'configure the value (--header "Name: value", or --auth for the apiKey scheme that names it), or let the model give it with --allow-credential-arguments NAME',
  },
  OMB_CREDENTIAL_MISSING: {
    title:
      "Served tools need a security scheme that has no credential (nor has any alternative of theirs): the API will refuse their calls",
    severity: "warning",
    fix: "configure it: --auth SCHEME=VALUE or OPENAPI_MCP_AUTH_<SCHEME>, an OAuth2 client (--oauth-client), a --pass-through-header over HTTP; the library: options.auth",
  },
  OMB_PARAMETER_FILLED: {
    title:
      "Parameters are sent from the configuration (--header, a configured apiKey scheme), not taken as arguments",
    severity: "info",
    fix: "nothing to do; the tools do not offer them, and a value the model gives is refused",
  },
  OMB_REQUEST_SIGNING: {
    title:
      "Operations need a per-request signature (AWS Signature v4's X-Amz-* parameters, a signing scheme): a static value cannot make one",
    severity: "warning",
    fix: "put a signing proxy in front of the API and give its URL with --base-url, or serve another API; the bridge does not sign requests",
  },
  OMB_SECRET_SHORT: {
    title: "A credential is shorter than 4 characters: too short to be redacted from results",
    severity: "warning",
    fix: "check the value (a truncated variable?); a real secret that short is guessed anyway",
  },
  OMB_SERVER_URL: {
    title: "No usable server URL: the spec's is relative or missing, or has a variable without a value",
    severity: "error",
    fix: "give the API's URL with --base-url https://host/path, or the variable's value with --server-var NAME=VALUE",
  },
  OMB_SERVER_PLACEHOLDER: {
    title:
      "The spec's server URL names a placeholder host (your-domain.atlassian.net): calls would go nowhere",
    severity: "warning",
    fix: "give the API's URL with --base-url https://host/path (your site's, your tenant's)",
  },
  OMB_SERVER_VARIABLE: {
    title: "--server-var names a variable no server URL has, or a value outside the variable's enum",
    severity: "error",
    fix: "use a variable name and one of the values the spec lists for it",
  },
  OMB_SELECTION_EMPTY: {
    title: "The tool selection leaves no tool to serve",
    severity: "error",
    fix: "loosen --include-tools, --include-tags, --methods, --paths or --read-only; `openapi-mcp-bridge tools SPEC` lists the names and tags",
  },
  OMB_AUDIT_LOG_UNWRITABLE: {
    title: "The audit log file cannot be opened for appending; the bridge does not start without it",
    severity: "error",
    fix: "give a file in a directory you can write to (it is created with mode 0600), or - for stderr",
  },
  OMB_TELEMETRY_UNAVAILABLE: {
    title:
      "Telemetry was asked for (an OTLP endpoint, --metrics-port) but its OpenTelemetry packages are not installed",
    severity: "error",
    fix: "install the dependencies with their @opentelemetry packages (npm install without --omit), or turn telemetry off",
  },
  OMB_METRICS_LISTEN_FAILED: {
    title:
      "The Prometheus metrics listener cannot bind its address (port in use, no permission, no such address here)",
    severity: "error",
    fix: "choose another --metrics-port (OPENAPI_MCP_METRICS_PORT) or --metrics-host, or stop the other server",
  },
  OMB_STDIN_CONFLICT: {
    title: "`serve -` over stdio: standard input cannot carry both the spec and the MCP messages",
    severity: "error",
    fix: "save the spec to a file and serve that, or serve it over --transport http",
  },
  OMB_HTTP_EXPOSED: {
    title:
      "The HTTP transport listens on a non-loopback address without --http-token: anyone who reaches the port can call every tool",
    severity: "warning",
    fix: "set OPENAPI_MCP_HTTP_TOKEN (clients then send Authorization: Bearer TOKEN), or bind 127.0.0.1",
  },
  OMB_USER_LOGIN_INVALID: {
    title:
      "A per-user login to the API (flow: authorizationCode) cannot work: no OAuth front door to say who the user is, no provider URL, or a redirect URL the bridge cannot serve",
    severity: "error",
    fix: "serve over HTTP with --auth-issuer, name authorizationUrl/tokenUrl in the auth config where the spec has none, and give an https redirectUrl with a path of its own",
  },
  OMB_OAUTH_RESOURCE_CONFLICT: {
    title: "--http-token and --auth-issuer both guard the HTTP endpoint; the bridge takes one of them",
    severity: "error",
    fix: "keep --http-token for one shared token, or --auth-issuer for each user's OAuth access token, not both",
  },
  OMB_OAUTH_RESOURCE_INVALID: {
    title:
      "The OAuth front door's settings cannot work: a non-https issuer or resource (http only on loopback), an HMAC algorithm, half a client",
    severity: "error",
    fix: "give https issuer and resource URLs, asymmetric --auth-algorithms, and an introspection client's id with its secret",
  },
  OMB_MESSAGE_TOO_LARGE: {
    title:
      "An MCP message over stdio was larger than the bridge reads (--max-message-bytes); it was refused, the bridge keeps serving",
    severity: "error",
    fix: "send smaller messages (a base64 upload grows by a third), or raise --max-message-bytes",
  },
  // Several APIs in one bridge, hot reload (runtime/apis, runtime/reload)
  OMB_NAMESPACE: {
    title:
      "An API's namespace is not valid (letters and digits with single - or _ between them, at most 24 characters), or two APIs have the same one",
    severity: "error",
    fix: "give each API its own namespace with --namespace (in the order of the specs) or in the config file's apis",
  },
  OMB_BRIDGE_CONFIG: {
    title: "The bridge's config file (--config) cannot be read, or a key or value in it is not valid",
    severity: "error",
    fix: "check the key named against docs/serve.md (Several APIs in one bridge): `apis`, each with `spec` and the serve options by name",
  },
  OMB_API_OPTION_SHARED: {
    title:
      "Several APIs are served and an option that carries credentials or says where calls go was given for all of them",
    severity: "error",
    fix: "give it per API: in the config file's entry for the API, or as OPENAPI_MCP_<NAMESPACE>__<VARIABLE>",
  },
  OMB_API_VARIABLE: {
    title:
      "An OPENAPI_MCP_<NAMESPACE>__ variable that no API reads: an option of the whole bridge, or a namespace not served",
    severity: "error",
    fix: "set an option of the whole bridge without the namespace (OPENAPI_MCP_TRANSPORT); check the namespace against the served APIs' (serve's start-up lines name them)",
  },
  OMB_WATCH: {
    title: "--watch cannot watch this spec (standard input), or --watch-interval is given without --watch",
    severity: "error",
    fix: "serve the spec from a file or an http(s) URL to watch it",
  },
  OMB_RELOAD_FAILED: {
    title:
      "A changed spec could not be loaded, planned or served (hot reload); the bridge keeps serving the tools it had",
    severity: "warning",
    fix: "fix the spec at the place the message names and save it again; the next change is loaded",
  },
  OMB_OUTPUT_NOT_DIR: {
    title: "generate -o names a file, not a directory",
    severity: "error",
    fix: "give the path of a new or empty directory",
  },
  OMB_OUTPUT_CHANGED: {
    title:
      "generate --force would overwrite files changed since the last generation (or not written by one): they are listed, nothing is written",
    severity: "error",
    fix: "move hook code into src/hooks.ts (generation never rewrites it), then restore or delete the listed files, or pass --overwrite-changed to replace them",
  },
  OMB_OUTPUT_INTERRUPTED: {
    title:
      "An earlier generate into the directory was interrupted (its marker is still there): the files may be a mix of two generations",
    severity: "error",
    fix: "run generate again with --force: it completes the generation and removes the marker (files you changed are still refused unless --overwrite-changed)",
  },
  OMB_OUTPUT_NOT_EMPTY: {
    title: "generate -o names a directory that is not empty",
    severity: "error",
    fix: "choose an empty or new directory, or pass --force to write over the generated files in it",
  },
  OMB_OUTPUT_UNWRITABLE: {
    title:
      "The output path cannot be written: permission denied, a read-only file system, a parent that is a file or does not exist",
    severity: "error",
    fix: "choose a path in a directory you can write to (model -o creates no directories; generate -o creates them)",
  },
  OMB_OPTIONAL_PACKAGE_MISSING: {
    title: "The command needs an optional dependency that is not installed: js-tiktoken for lint",
    severity: "error",
    fix: "npm install the packages named where openapi-mcp-bridge is installed (-g for a global install), or install openapi-mcp-bridge again without --omit=optional",
  },

  // install / uninstall: MCP client configurations
  OMB_CLIENT_UNSUPPORTED: {
    title: "The MCP client has no configuration file on this operating system (Claude Desktop on Linux)",
    severity: "error",
    fix: "give the file with --config PATH (or OPENAPI_MCP_CLIENT_CONFIG) if your build of the client reads one",
  },
  OMB_CLIENT_CONFIG_INVALID: {
    title:
      "The client's configuration file is not JSON, or its servers entry is not an object; it was left untouched",
    severity: "error",
    fix: "fix the file at the line given (or move it away), then run the command again",
  },
  OMB_CLIENT_ENTRY_EXISTS: {
    title: "The client's configuration already has another server under this name; nothing was written",
    severity: "error",
    fix: "choose another --name, or pass --force to replace that entry (a backup of the file is kept)",
  },
  OMB_CLIENT_ENTRY_NOT_FOUND: {
    title: "uninstall: the client's configuration has no server under this name",
    severity: "error",
    fix: "check --name and --client; the message lists the names the file has",
  },
  OMB_CLIENT_INLINE_SECRET: {
    title:
      "install was given a credential that would be written into the client's configuration file in plain text",
    severity: "error",
    fix: "leave the value out (the entry refers to the environment variable or asks for it), or pass --inline-secrets to write it anyway",
  },
  OMB_CLIENT_CLI_FAILED: {
    title: "The client's own command line (claude mcp add/remove) failed",
    severity: "error",
    fix: "read its output in the message; or write the file directly with --config PATH",
  },

  // lint: what makes a spec hard for a model to use as tools
  OMB_LINT_MISSING_OPERATION_ID: {
    title: "An operation has no operationId; its tool is named from the method and path",
    severity: "warning",
    fix: "add an operationId (lint suggests one)",
  },
  OMB_LINT_MISSING_DESCRIPTION: {
    title:
      "An operation has neither summary nor description; a model has only the name and path to choose it by",
    severity: "error",
    fix: 'add a summary saying what it does on which object ("List the pets of an owner")',
  },
  OMB_LINT_VAGUE_DESCRIPTION: {
    title: "An operation is described only by its path, or in under three words",
    severity: "warning",
    fix: "say what the operation does, on which object, and what it returns, in one sentence",
  },
  OMB_LINT_DESCRIPTION_OVER_BUDGET: {
    title:
      "An operation's summary and description are far over the description budget; the tool keeps the first sentences",
    severity: "info",
    fix: "put what a caller must know first: the first sentences are kept, the rest is cut",
  },
  OMB_LINT_PARAMETER_WITHOUT_DESCRIPTION: {
    title: "A parameter has no description (nor has its schema)",
    severity: "info",
    fix: "describe the value expected, with its unit or format and an example",
  },
  OMB_LINT_DUPLICATE_OPERATION_ID: {
    title: "Two operations share an operationId (compared without case); the later tool gets a hashed suffix",
    severity: "error",
    fix: "give every operation its own operationId",
  },
  OMB_LINT_DUPLICATE_SUMMARY: {
    title: "Two operations share a summary; a model cannot tell the tools apart by it",
    severity: "warning",
    fix: "say in the summary what makes this operation different (its object, scope or filter)",
  },
  OMB_LINT_NEAR_IDENTICAL_TOOLS: {
    title: "Two routes differ only in parameter names, case or a trailing slash",
    severity: "warning",
    fix: "merge the two operations, or hide one (x-mcp: { hidden: true })",
  },
  OMB_LINT_CREDENTIAL_PARAMETER: {
    title:
      "Parameters look like credentials: the bridge never takes them from the model, so the operator must configure them",
    severity: "warning",
    fix: "declare them as a security scheme (components.securitySchemes) instead of parameters; operators configure them with --header or --auth",
  },
  OMB_LINT_SCHEMA_TOO_LARGE: {
    title: "A tool's input schema is over --schema-tokens tokens; every conversation pays for it",
    severity: "warning",
    fix: "split the operation, or move rarely used nested options behind a simpler schema; drop descriptions that repeat the property name",
  },

  // Tool catalogs (catalog, diff)
  OMB_CATALOG_READ: {
    title: "A catalog file cannot be read, or is neither JSON nor YAML",
    severity: "error",
    fix: "check the path; give a file written by `openapi-mcp-bridge catalog`",
  },
  OMB_CATALOG_INVALID: {
    title: "A catalog file does not have the shape of a tool catalog (the pointer names the field)",
    severity: "error",
    fix: "write the catalog again with `openapi-mcp-bridge catalog` (schemas/catalog.schema.json describes the file)",
  },
  OMB_CATALOG_FORMAT: {
    title: "The catalog was written in a catalog format this bridge does not read (catalogFormat)",
    severity: "error",
    fix: "write the catalog again with this version of the bridge",
  },
  OMB_CATALOG_VERSION: {
    title: "A catalogVersion is not a version MAJOR.MINOR.PATCH",
    severity: "error",
    fix: "give --catalog-version as MAJOR.MINOR.PATCH (e.g. 2.0.0), or fix catalogVersion in the previous catalog",
  },

  // Fallbacks
  OMB_ERROR: {
    title: "A coded error that carries no diagnostic (its code when asked)",
    severity: "error",
    fix: "report it: every error should carry a diagnostic",
  },
  OMB_INTERNAL: {
    title: "An unexpected error: a bug in the bridge, not a problem with the spec or the options",
    severity: "error",
    fix: "report it with the command line; OPENAPI_MCP_DEBUG=1 prints the stack trace",
  },
} as const satisfies Record<`OMB_${string}`, DiagnosticCodeEntry>;

/** A code of the catalog: what createDiagnostic and failWith accept. */
export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/** The codes of lint findings. */
export type LintCode = Extract<DiagnosticCode, `OMB_LINT_${string}`>;

const LINT_PREFIX = "OMB_LINT_";

/** Every lint code, in the catalog's order. */
export const LINT_CODES: readonly LintCode[] = Object.keys(DIAGNOSTIC_CODES).filter(
  (code): code is LintCode => code.startsWith(LINT_PREFIX),
);

/**
 * The lint code a person typed: `OMB_LINT_MISSING_OPERATION_ID`, `missing_operation_id` or
 * `missing-operation-id` (any case, the prefix optional); undefined when there is none.
 */
export function toLintCode(name: string): LintCode | undefined {
  const code = spellLintCode(name);
  return (LINT_CODES as readonly string[]).includes(code) ? (code as LintCode) : undefined;
}

/** A name as a lint code is spelt (upper case, `_`, the prefix): what toLintCode looks up. */
export function spellLintCode(name: string): string {
  const upper = name.trim().toUpperCase().replaceAll("-", "_");
  return upper.startsWith(LINT_PREFIX) ? upper : `${LINT_PREFIX}${upper}`;
}

/** Whether a string (e.g. the code of a diagnostic read from a saved model) is in the catalog. */
export function isDiagnosticCode(value: string): value is DiagnosticCode {
  return Object.hasOwn(DIAGNOSTIC_CODES, value);
}

/** Whether a diagnostic is one the operator hears of without --verbose (`announced` in the catalog). */
export function isAnnounced(diagnostic: { code: string }): boolean {
  if (!isDiagnosticCode(diagnostic.code)) return false;
  const entry: DiagnosticCodeEntry = DIAGNOSTIC_CODES[diagnostic.code];
  return entry.announced === true;
}
