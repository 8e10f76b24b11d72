/**
 * Swagger 2.0 → OpenAPI 3.0.3, keeping everything that has a place in 3.0 and warning about
 * anything that has none (OMB_SWAGGER2_CONVERT, with the pointer of the source node).
 *
 * Sections of the 2.0 specification implemented here: 2.0 "Swagger Object" (host, basePath,
 * schemes → servers), "Parameter Object" (collectionFormat → style/explode, body and formData →
 * requestBody), "Response Object" (produces → content), "Security Definitions Object" (→
 * securitySchemes), "Schema Object" (x-nullable, discriminator, type: file).
 *
 * Nodes that move (definitions, parameters, response schemas, body parameters...) are recorded,
 * and every local `$ref` is rewritten at the end through that record, so refs that pointed
 * anywhere (not only to `#/definitions/X`) still point at the same node.
 */
import type { DiagnosticCode } from "../../../model/diagnostic-codes.js";
import { createDiagnostic } from "../../../model/diagnostics.js";
import { HTTP_METHODS } from "../../../model/http-methods.js";
import {
  escapePointerToken,
  followLocalRef,
  joinPointer,
  resolvePointer,
  splitPointer,
} from "../../../model/pointer.js";
import { isRecord as isObject } from "../../../model/records.js";
import type { Diagnostic } from "../../../model/types.js";
import type { OpenApiDocument, Swagger2Document } from "../openapi-document.js";

type Json = Record<string, unknown>;

const CODE: DiagnosticCode = "OMB_SWAGGER2_CONVERT";
const DEFAULT_MEDIA_TYPE = "application/json";
const FORM_URLENCODED = "application/x-www-form-urlencoded";
const MULTIPART = "multipart/form-data";
/** Swagger 2.0 path items have no trace operation. */
const METHODS = HTTP_METHODS.filter((method) => method !== "trace");

/** Validation keywords a 2.0 non-body parameter, header or items object moves into `schema`. */
const SIMPLE_SCHEMA_KEYS = [
  "type",
  "format",
  "items",
  "default",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "enum",
  "multipleOf",
] as const;

export function convertSwagger2(
  doc: Swagger2Document,
  source: string,
): { document: OpenApiDocument; diagnostics: Diagnostic[] } {
  const converter = new Swagger2Converter(doc, source);
  return { document: converter.convert() as OpenApiDocument, diagnostics: converter.diagnostics };
}

/** What a parameter may hold besides its extensions (the simple schema's keys included). */
const PARAMETER_KEYS: ReadonlySet<string> = new Set([
  "name",
  "in",
  "description",
  "required",
  "allowEmptyValue",
  "collectionFormat",
  ...SIMPLE_SCHEMA_KEYS,
]);

function isExtension(key: string): boolean {
  return key.startsWith("x-");
}

/**
 * Each member of a map converted (one that converts to undefined is left out), its `x-`
 * extensions kept as they are; not a map: an empty one.
 */
function convertMembers(map: unknown, convert: (key: string, value: unknown) => unknown): Json {
  const out: Json = {};
  if (!isObject(map)) return out;
  for (const [key, value] of Object.entries(map)) {
    if (isExtension(key)) {
      out[key] = value;
      continue;
    }
    const converted = convert(key, value);
    if (converted !== undefined) out[key] = converted;
  }
  return out;
}

function mediaBase(mediaType: string): string {
  return mediaType.split(";")[0]!.trim().toLowerCase();
}

function stringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const list = value.filter((v): v is string => typeof v === "string");
  return list.length > 0 ? list : undefined;
}

function parameterKey(p: Json): string {
  return `${String(p["in"])}\u0000${String(p["name"])}`;
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** `#` + pointer, percent-encoding `%` so that decoding (see splitPointer) gives the tokens back. */
function toRef(tokens: string[]): string {
  return `#${tokens.map((t) => `/${escapePointerToken(t).replaceAll("%", "%25")}`).join("")}`;
}

interface Located {
  value: Json;
  /** Pointer (tokens) of the node in the 2.0 document. */
  at: string[];
}

class Swagger2Converter {
  readonly diagnostics: Diagnostic[] = [];
  /** Old pointer → new pointer, for rewriting refs. */
  private readonly moves = new Map<string, string[]>();
  private readonly consumes: string[];
  private readonly produces: string[];
  /** Global formData parameters (`#/parameters/X` with `in: formData`) that an operation used. */
  private readonly usedFormParameters = new Set<string>();

  constructor(
    private readonly src: Json,
    private readonly file: string,
  ) {
    this.consumes = stringList(src["consumes"]) ?? [DEFAULT_MEDIA_TYPE];
    this.produces = stringList(src["produces"]) ?? [DEFAULT_MEDIA_TYPE];
  }

  /**
   * `x-` extensions copied to `out` as they are (a parameter's `x-nullable`, which its
   * conversion reads, excepted); any other key not `known` is said to be dropped.
   */
  private carryExtensions(
    from: Json,
    out: Json,
    known: ReadonlySet<string>,
    at: string[],
    describeDropped: (key: string) => string,
  ): void {
    const read = known === PARAMETER_KEYS ? "x-nullable" : undefined;
    for (const [key, value] of Object.entries(from)) {
      if (isExtension(key)) {
        if (key !== read) out[key] = value;
      } else if (!known.has(key)) this.warn([...at, key], describeDropped(key));
    }
  }

  warn(at: string[], message: string, hint?: string): void {
    this.diagnostics.push(
      createDiagnostic(CODE, message, {
        file: this.file,
        pointer: joinPointer(...at),
        ...(hint !== undefined ? { hint } : {}),
      }),
    );
  }

  private move(from: string[], to: string[]): void {
    this.moves.set(joinPointer(...from), to);
  }

  convert(): Json {
    const src = this.src;
    const out: Json = { openapi: "3.0.3" };
    out["info"] = src["info"];
    out["servers"] = this.convertServers();
    if (src["security"] !== undefined) out["security"] = src["security"];
    if (src["tags"] !== undefined) out["tags"] = src["tags"];
    if (src["externalDocs"] !== undefined) out["externalDocs"] = src["externalDocs"];
    const components = this.convertComponents();
    out["paths"] = this.convertPaths();
    if (Object.keys(components).length > 0) out["components"] = components;
    const known = new Set([
      "swagger",
      "info",
      "host",
      "basePath",
      "schemes",
      "consumes",
      "produces",
      "paths",
      "definitions",
      "parameters",
      "responses",
      "securityDefinitions",
      "security",
      "tags",
      "externalDocs",
    ]);
    this.carryExtensions(
      src,
      out,
      known,
      [],
      (key) => `unknown top-level property "${key}" has no OpenAPI 3 place; dropped`,
    );
    this.reportUnusedFormParameters();
    this.rewriteRefs(out);
    return out;
  }

  // -- servers -------------------------------------------------------------------------------

  private schemes(value: unknown): string[] {
    return stringList(value) ?? ["https"];
  }

  private serverUrls(schemes: string[]): Json[] {
    const host = this.src["host"];
    let basePath = typeof this.src["basePath"] === "string" ? (this.src["basePath"] as string) : "";
    if (basePath.length > 1 && basePath.endsWith("/")) basePath = basePath.slice(0, -1);
    if (typeof host !== "string" || host === "") return [{ url: basePath === "" ? "/" : basePath }];
    if (basePath === "/") basePath = "";
    return schemes.map((scheme) => ({ url: `${scheme}://${host}${basePath}` }));
  }

  private convertServers(): Json[] {
    return this.serverUrls(this.schemes(this.src["schemes"]));
  }

  // -- components ----------------------------------------------------------------------------

  private convertComponents(): Json {
    const src = this.src;
    const components: Json = {};
    if (isObject(src["definitions"])) {
      const schemas: Json = {};
      for (const [name, schema] of Object.entries(src["definitions"])) {
        schemas[name] = this.convertSchema(schema, ["definitions", name]);
      }
      this.move(["definitions"], ["components", "schemas"]);
      components["schemas"] = schemas;
    }
    if (isObject(src["responses"])) {
      const responses: Json = {};
      for (const [name, response] of Object.entries(src["responses"])) {
        responses[name] = this.convertResponse(
          response,
          this.produces,
          ["responses", name],
          ["components", "responses", name],
        );
      }
      components["responses"] = responses;
    }
    if (isObject(src["parameters"])) {
      const parameters: Json = {};
      const requestBodies: Json = {};
      for (const [name, parameter] of Object.entries(src["parameters"])) {
        const at = ["parameters", name];
        if (!isObject(parameter)) continue;
        if (parameter["in"] === "body") {
          // Operations get an inlined copy (with their own consumes); the component is kept as
          // the target of refs that pointed into the 2.0 parameter.
          const target = ["components", "requestBodies", name];
          this.move(at, target);
          this.move([...at, "schema"], [...target, "content", this.consumes[0]!, "schema"]);
          requestBodies[name] = this.bodyToRequestBody({ value: parameter, at }, this.consumes);
        } else if (parameter["in"] === "formData") {
          // Inlined into each operation's form body; see reportUnusedFormParameters.
        } else {
          const target = ["components", "parameters", name];
          parameters[name] = this.convertParameter(parameter, at, target);
        }
      }
      if (Object.keys(parameters).length > 0) components["parameters"] = parameters;
      if (Object.keys(requestBodies).length > 0) components["requestBodies"] = requestBodies;
    }
    if (isObject(src["securityDefinitions"])) {
      const schemes: Json = {};
      for (const [name, definition] of Object.entries(src["securityDefinitions"])) {
        const converted = this.convertSecurityScheme(definition, ["securityDefinitions", name]);
        if (converted) schemes[name] = converted;
      }
      this.move(["securityDefinitions"], ["components", "securitySchemes"]);
      components["securitySchemes"] = schemes;
    }
    return components;
  }

  private reportUnusedFormParameters(): void {
    const parameters = this.src["parameters"];
    if (!isObject(parameters)) return;
    for (const [name, parameter] of Object.entries(parameters)) {
      if (isObject(parameter) && parameter["in"] === "formData" && !this.usedFormParameters.has(name)) {
        this.warn(
          ["parameters", name],
          `formData parameter "${name}" is not used by any operation; OpenAPI 3 has no reusable form fields, so it is dropped`,
        );
      }
    }
  }

  private convertSecurityScheme(definition: unknown, at: string[]): Json | undefined {
    if (!isObject(definition)) return undefined;
    const out: Json = {};
    const type = definition["type"];
    if (type === "basic") {
      out["type"] = "http";
      out["scheme"] = "basic";
    } else if (type === "apiKey") {
      out["type"] = "apiKey";
      out["name"] = definition["name"];
      out["in"] = definition["in"];
    } else if (type === "oauth2") {
      out["type"] = "oauth2";
      const flowNames: Record<string, string> = {
        implicit: "implicit",
        password: "password",
        application: "clientCredentials",
        accessCode: "authorizationCode",
      };
      const flow = definition["flow"];
      const name = typeof flow === "string" ? flowNames[flow] : undefined;
      if (name === undefined) {
        this.warn(at, `unknown oauth2 flow ${JSON.stringify(flow)}; security scheme dropped`);
        return undefined;
      }
      const converted: Json = {};
      if (name === "implicit" || name === "authorizationCode") {
        converted["authorizationUrl"] = definition["authorizationUrl"];
      }
      if (name !== "implicit") converted["tokenUrl"] = definition["tokenUrl"];
      converted["scopes"] = isObject(definition["scopes"]) ? definition["scopes"] : {};
      out["flows"] = { [name]: converted };
    } else {
      this.warn(at, `unknown security scheme type ${JSON.stringify(type)}; dropped`);
      return undefined;
    }
    if (definition["description"] !== undefined) out["description"] = definition["description"];
    for (const [key, value] of Object.entries(definition)) if (isExtension(key)) out[key] = value;
    return out;
  }

  // -- paths ---------------------------------------------------------------------------------

  private convertPaths(): Json {
    return convertMembers(this.src["paths"], (template, item) =>
      isObject(item) ? this.convertPathItem(item, ["paths", template]) : undefined,
    );
  }

  private convertPathItem(item: Json, at: string[]): Json {
    const out: Json = {};
    if (typeof item["$ref"] === "string") {
      out["$ref"] = item["$ref"];
      this.warn(at, "path item $ref kept as is: its target is not converted from Swagger 2.0");
    }
    // Path-level body and formData parameters belong to each operation's requestBody in 3.0.
    const shared: Located[] = [];
    const kept: Json[] = [];
    if (Array.isArray(item["parameters"])) {
      item["parameters"].forEach((raw, index) => {
        const here = [...at, "parameters", String(index)];
        const found = this.locateParameter(raw, here);
        if (!found) {
          kept.push(raw as Json);
          return;
        }
        if (found.value["in"] === "body" || found.value["in"] === "formData") {
          shared.push({ value: found.value, at: found.at });
          return;
        }
        const target = [...at, "parameters", String(kept.length)];
        kept.push(
          found.viaRef ? { $ref: (raw as Json)["$ref"] } : this.convertParameter(found.value, here, target),
        );
        if (found.viaRef) this.move(here, target);
      });
    }
    const methods = METHODS.filter((m) => isObject(item[m]));
    for (const method of methods) {
      out[method] = this.convertOperation(item[method] as Json, [...at, method], shared);
    }
    if (kept.length > 0) out["parameters"] = kept;
    for (const [key, value] of Object.entries(item)) {
      if (isExtension(key)) out[key] = value;
      else if (key !== "$ref" && key !== "parameters" && !(METHODS as string[]).includes(key)) {
        this.warn([...at, key], `unknown path item property "${key}" dropped`);
      }
    }
    if (shared.length > 0 && methods.length === 0) {
      this.warn(
        [...at, "parameters"],
        "path-level body/formData parameters with no operation to carry them; dropped",
      );
    }
    return out;
  }

  /** Follows local refs from a parameter entry to the parameter object. */
  private locateParameter(raw: unknown, at: string[]): (Located & { viaRef: boolean }) | undefined {
    let where = at;
    let viaRef = false;
    const value = followLocalRef(this.src, raw, {
      onRef: (node) => {
        viaRef = true;
        where = splitPointer(node["$ref"] as string);
      },
    });
    if (!isObject(value) || typeof value["$ref"] === "string") {
      this.warn(at, "parameter reference could not be resolved; kept as is");
      return undefined;
    }
    return { value, at: where, viaRef };
  }

  private convertOperation(op: Json, at: string[], shared: Located[]): Json {
    const out: Json = {};
    for (const key of ["tags", "summary", "description", "externalDocs", "operationId"]) {
      if (op[key] !== undefined) out[key] = op[key];
    }
    const consumes = stringList(op["consumes"]) ?? this.consumes;
    const produces = stringList(op["produces"]) ?? this.produces;

    // First find what each entry is (refs followed), then place it: form fields need the
    // final media type, which depends on whether any of them is a file.
    const entries: { raw: unknown; here: string[]; found: (Located & { viaRef: boolean }) | undefined }[] =
      [];
    const rawParameters = Array.isArray(op["parameters"]) ? op["parameters"] : [];
    rawParameters.forEach((raw, index) => {
      const here = [...at, "parameters", String(index)];
      entries.push({ raw, here, found: this.locateParameter(raw, here) });
    });
    const own = new Set(entries.map((e) => (e.found ? parameterKey(e.found.value) : "")));
    const ownBody = entries.some((e) => e.found?.value["in"] === "body");
    const inherited = shared.filter(
      (s) => !own.has(parameterKey(s.value)) && !(ownBody && s.value["in"] === "body"),
    );

    const parameters: Json[] = [];
    let body: Located | undefined;
    const form: Located[] = [];
    const bodyTarget = [...at, "requestBody"];
    for (const { found, here } of entries) {
      if (found?.value["in"] === "body") {
        if (body) this.warn(here, "a second body parameter; only the first is used");
        else body = { value: found.value, at: here };
      } else if (found?.value["in"] === "formData") {
        form.push({ value: found.value, at: here });
        this.noteFormParameter(found);
      }
    }
    for (const s of inherited) {
      if (s.value["in"] === "body") body ??= s;
      else {
        form.push(s);
        this.noteFormParameter(s);
      }
    }
    const formTypes = this.formMediaTypes(op, at, consumes, form, true);
    for (const { raw, here, found } of entries) {
      if (!found) {
        parameters.push(raw as Json);
      } else if (found.value["in"] !== "body" && found.value["in"] !== "formData") {
        const target = [...at, "parameters", String(parameters.length)];
        if (found.viaRef) {
          parameters.push({ $ref: (raw as Json)["$ref"] });
          this.move(here, target);
        } else {
          parameters.push(this.convertParameter(found.value, here, target));
        }
      }
    }
    if (body && !this.moves.has(joinPointer(...body.at))) {
      this.move(body.at, bodyTarget);
      this.move([...body.at, "schema"], [...bodyTarget, "content", consumes[0]!, "schema"]);
    }
    if (!body) {
      for (const field of form) {
        if (this.moves.has(joinPointer(...field.at))) continue;
        const target = [
          ...bodyTarget,
          "content",
          formTypes[0]!,
          "schema",
          "properties",
          String(field.value["name"]),
        ];
        this.move(field.at, target);
        this.move([...field.at, "items"], [...target, "items"]);
      }
    }
    if (parameters.length > 0) out["parameters"] = parameters;
    if (body) {
      if (form.length > 0) {
        this.warn(
          [...at, "parameters"],
          "both a body and formData parameters; the formData parameters are dropped",
        );
      }
      out["requestBody"] = this.bodyToRequestBody(body, consumes);
    } else if (form.length > 0) {
      out["requestBody"] = this.formToRequestBody(form, op, at, consumes);
    }

    out["responses"] = this.convertResponses(op["responses"], produces, [...at, "responses"]);
    if (op["deprecated"] !== undefined) out["deprecated"] = op["deprecated"];
    if (op["security"] !== undefined) out["security"] = op["security"];
    if (op["schemes"] !== undefined) {
      const schemes = this.schemes(op["schemes"]);
      if (!sameList(schemes, this.schemes(this.src["schemes"]))) {
        if (typeof this.src["host"] === "string") out["servers"] = this.serverUrls(schemes);
        else this.warn([...at, "schemes"], "operation schemes without a host cannot be expressed; ignored");
      }
    }
    const known = new Set([
      "tags",
      "summary",
      "description",
      "externalDocs",
      "operationId",
      "consumes",
      "produces",
      "parameters",
      "responses",
      "schemes",
      "deprecated",
      "security",
    ]);
    this.carryExtensions(op, out, known, at, (key) => `unknown operation property "${key}" dropped`);
    return out;
  }

  private noteFormParameter(found: Located): void {
    if (found.at.length === 2 && found.at[0] === "parameters") this.usedFormParameters.add(found.at[1]!);
  }

  // -- parameters ----------------------------------------------------------------------------

  /** A 2.0 path/query/header parameter as a 3.0 Parameter Object. */
  private convertParameter(p: Json, at: string[], target: string[]): Json {
    this.move(at, target);
    this.move([...at, "items"], [...target, "schema", "items"]);
    const location = String(p["in"]);
    const out: Json = { name: p["name"], in: p["in"] };
    if (p["description"] !== undefined) out["description"] = p["description"];
    if (location === "path") out["required"] = true;
    else if (p["required"] !== undefined) out["required"] = p["required"];
    if (p["allowEmptyValue"] !== undefined) out["allowEmptyValue"] = p["allowEmptyValue"];
    if (p["type"] === "array") Object.assign(out, this.arrayStyle(p["collectionFormat"], location, at));
    out["schema"] = this.simpleSchema(p, at);
    if (location === "path" && p["required"] !== true) {
      this.warn(at, "path parameter without required: true; it is required in OpenAPI 3");
    }
    if (!["path", "query", "header"].includes(location)) {
      this.warn(at, `parameter location "${location}" is not valid here; kept as is`);
    }
    this.carryExtensions(p, out, PARAMETER_KEYS, at, (key) => `unknown parameter property "${key}" dropped`);
    return out;
  }

  /**
   * collectionFormat → style/explode (OpenAPI 3.0 "Style Values"). `tsv` has no 3.0 style; it
   * becomes the non-standard `tabDelimited` the model understands.
   */
  private arrayStyle(
    collectionFormat: unknown,
    location: string,
    at: string[],
  ): { style: string; explode: boolean } {
    const simple = location === "path" || location === "header";
    switch (collectionFormat ?? "csv") {
      case "csv":
        return { style: simple ? "simple" : "form", explode: false };
      case "ssv":
        if (simple) this.warn(at, `collectionFormat ssv has no OpenAPI 3 style for ${location} parameters`);
        return { style: "spaceDelimited", explode: false };
      case "pipes":
        if (simple) this.warn(at, `collectionFormat pipes has no OpenAPI 3 style for ${location} parameters`);
        return { style: "pipeDelimited", explode: false };
      case "tsv":
        return { style: "tabDelimited", explode: false };
      case "multi":
        if (simple)
          this.warn(at, `collectionFormat multi is only meaningful for query and formData parameters`);
        return { style: "form", explode: true };
      default:
        this.warn(at, `unknown collectionFormat ${JSON.stringify(collectionFormat)}; treated as csv`);
        return { style: simple ? "simple" : "form", explode: false };
    }
  }

  /** The validation keywords of a parameter, header or items object, as a 3.0 schema. */
  private simpleSchema(p: Json, at: string[]): Json {
    const schema: Json = {};
    for (const key of SIMPLE_SCHEMA_KEYS) {
      if (p[key] === undefined) continue;
      if (key === "items") {
        schema["items"] = isObject(p["items"]) ? this.itemsSchema(p["items"], [...at, "items"]) : p["items"];
      } else {
        schema[key] = p[key];
      }
    }
    if (p["type"] === "file") {
      schema["type"] = "string";
      schema["format"] = "binary";
    }
    if (p["x-nullable"] === true) schema["nullable"] = true;
    return schema;
  }

  private itemsSchema(items: Json, at: string[]): Json {
    const schema = this.simpleSchema(items, at);
    if (items["collectionFormat"] !== undefined) {
      this.warn(
        at,
        "collectionFormat on nested items cannot be expressed in OpenAPI 3; kept as x-collectionFormat",
      );
      schema["x-collectionFormat"] = items["collectionFormat"];
    }
    for (const [key, value] of Object.entries(items)) {
      if (isExtension(key) && key !== "x-nullable") schema[key] = value;
      else if (
        !isExtension(key) &&
        key !== "collectionFormat" &&
        !(SIMPLE_SCHEMA_KEYS as readonly string[]).includes(key)
      ) {
        this.warn([...at, key], `unknown items property "${key}" dropped`);
      }
    }
    return schema;
  }

  /** Copies `x-*` (except x-nullable, converted) and warns about properties with no 3.0 place. */
  // -- request bodies ------------------------------------------------------------------------

  private bodyToRequestBody(body: Located, consumes: string[]): Json {
    const p = body.value;
    const out: Json = {};
    if (p["description"] !== undefined) out["description"] = p["description"];
    const schema = this.convertSchema(p["schema"] ?? {}, [...body.at, "schema"]);
    const content: Json = {};
    consumes.forEach((mediaType, index) => {
      content[mediaType] = { schema: index === 0 ? schema : structuredClone(schema) };
    });
    out["content"] = content;
    // Unsaid stays unsaid: planning reads an explicit `required: false` as "the body may be left
    // out" and nothing as the default (compile/request-body.ts, readBodyPresence).
    if (p["required"] !== undefined) out["required"] = p["required"] === true;
    if (typeof p["name"] === "string") out["x-codegen-request-body-name"] = p["name"];
    for (const [key, value] of Object.entries(p)) {
      if (isExtension(key)) out[key] = value;
      else if (!["name", "in", "description", "required", "schema"].includes(key)) {
        this.warn([...body.at, key], `unknown body parameter property "${key}" dropped`);
      }
    }
    return out;
  }

  /**
   * The form media types for an operation: those of `consumes` that are form types, else
   * urlencoded; multipart only when a file is sent (urlencoded cannot carry one).
   */
  private formMediaTypes(
    op: Json,
    at: string[],
    consumes: string[],
    form: Located[],
    quiet: boolean,
  ): string[] {
    const hasFile = form.some((f) => f.value["type"] === "file");
    const declared = consumes.filter((m) => mediaBase(m) === FORM_URLENCODED || mediaBase(m) === MULTIPART);
    const multipart = declared.filter((m) => mediaBase(m) === MULTIPART);
    const explicit =
      stringList(op["consumes"]) !== undefined || stringList(this.src["consumes"]) !== undefined;
    const where = stringList(op["consumes"]) !== undefined ? [...at, "consumes"] : ["consumes"];
    if (hasFile) {
      if (multipart.length > 0) return multipart;
      if (!quiet && explicit) {
        this.warn(where, `a file parameter needs ${MULTIPART}; using it instead of ${consumes.join(", ")}`);
      }
      return [MULTIPART];
    }
    if (declared.length > 0) return declared;
    if (!quiet && explicit) {
      this.warn(
        where,
        `formData parameters but consumes lists ${consumes.join(", ")}; using ${FORM_URLENCODED}`,
      );
    }
    return [FORM_URLENCODED];
  }

  private formToRequestBody(form: Located[], op: Json, at: string[], consumes: string[]): Json {
    const types = this.formMediaTypes(op, at, consumes, form, false);
    const properties: Json = {};
    const required: string[] = [];
    const encoding: Json = {};
    for (const { value: p, at: here } of form) {
      const name = String(p["name"]);
      const schema: Json = {};
      if (p["description"] !== undefined) schema["description"] = p["description"];
      Object.assign(schema, this.simpleSchema(p, here));
      for (const [key, value] of Object.entries(p))
        if (isExtension(key) && key !== "x-nullable") schema[key] = value;
      properties[name] = schema;
      if (p["required"] === true) required.push(name);
      if (p["type"] === "array") encoding[name] = this.arrayStyle(p["collectionFormat"], "formData", here);
      if (p["allowEmptyValue"] !== undefined) {
        this.warn(
          [...here, "allowEmptyValue"],
          "allowEmptyValue has no OpenAPI 3 equivalent for form fields; dropped",
        );
      }
      this.carryExtensions(
        p,
        {},
        PARAMETER_KEYS,
        here,
        (key) => `unknown parameter property "${key}" dropped`,
      );
    }
    const schema: Json = { type: "object", properties };
    if (required.length > 0) schema["required"] = required;
    const content: Json = {};
    types.forEach((mediaType, index) => {
      const entry: Json = { schema: index === 0 ? schema : structuredClone(schema) };
      if (Object.keys(encoding).length > 0) entry["encoding"] = structuredClone(encoding);
      content[mediaType] = entry;
    });
    return { content, required: required.length > 0 };
  }

  // -- responses -----------------------------------------------------------------------------

  private convertResponses(responses: unknown, produces: string[], at: string[]): Json {
    return convertMembers(responses, (status, response) =>
      this.convertResponse(response, produces, [...at, status], [...at, status]),
    );
  }

  /** `target`: where the response lands, recorded for ref rewriting; none for inlined copies. */
  private convertResponse(
    response: unknown,
    produces: string[],
    at: string[],
    target: string[] | undefined,
  ): Json {
    if (!isObject(response)) return {};
    if (target) this.move(at, target);
    if (typeof response["$ref"] === "string") {
      const ref = response["$ref"];
      // A shared response takes the global produces; inline it where the operation differs.
      const resolved = ref.startsWith("#") ? resolvePointer(this.src, ref) : undefined;
      const hasContent =
        isObject(resolved) && (resolved["schema"] !== undefined || resolved["examples"] !== undefined);
      if (hasContent && !sameList(produces, this.produces) && typeof resolved["$ref"] !== "string") {
        return this.convertResponse(resolved, produces, splitPointer(ref), undefined);
      }
      return { $ref: ref };
    }
    const out: Json = { description: response["description"] ?? "" };
    if (response["description"] === undefined) this.warn(at, "response without a description");
    if (isObject(response["headers"])) {
      const headers: Json = {};
      for (const [name, header] of Object.entries(response["headers"])) {
        if (!isObject(header)) continue;
        const where = [...at, "headers", name];
        if (target) {
          this.move(where, [...target, "headers", name]);
          this.move([...where, "items"], [...target, "headers", name, "schema", "items"]);
        }
        headers[name] = this.convertHeader(header, where);
      }
      out["headers"] = headers;
    }
    const content: Json = {};
    if (response["schema"] !== undefined) {
      const schema = this.convertSchema(response["schema"], [...at, "schema"]);
      produces.forEach((mediaType, index) => {
        content[mediaType] = { schema: index === 0 ? schema : structuredClone(schema) };
      });
      if (target) this.move([...at, "schema"], [...target, "content", produces[0]!, "schema"]);
    }
    if (isObject(response["examples"])) {
      for (const [mediaType, example] of Object.entries(response["examples"])) {
        const entry = (content[mediaType] as Json | undefined) ?? {};
        if (!content[mediaType] && response["schema"] !== undefined) {
          entry["schema"] = this.convertSchema(response["schema"], [...at, "schema"]);
        }
        entry["example"] = example;
        content[mediaType] = entry;
      }
    }
    if (Object.keys(content).length > 0) out["content"] = content;
    for (const [key, value] of Object.entries(response)) {
      if (isExtension(key)) out[key] = value;
      else if (!["description", "headers", "schema", "examples"].includes(key)) {
        this.warn([...at, key], `unknown response property "${key}" dropped`);
      }
    }
    return out;
  }

  private convertHeader(header: Json, at: string[]): Json {
    const out: Json = {};
    if (header["description"] !== undefined) out["description"] = header["description"];
    if (header["type"] === "array") {
      const style = this.arrayStyle(header["collectionFormat"], "header", at);
      if (style.style !== "simple") Object.assign(out, style);
    }
    out["schema"] = this.simpleSchema(header, at);
    for (const [key, value] of Object.entries(header)) {
      if (isExtension(key)) {
        if (key !== "x-nullable") out[key] = value;
      } else if (
        key !== "description" &&
        key !== "collectionFormat" &&
        !(SIMPLE_SCHEMA_KEYS as readonly string[]).includes(key)
      ) {
        this.warn([...at, key], `unknown header property "${key}" dropped`);
      }
    }
    return out;
  }

  // -- schemas -------------------------------------------------------------------------------

  /** A 2.0 Schema Object as a 3.0 one: x-nullable, discriminator, type: file; recursive. */
  convertSchema(schema: unknown, at: string[]): unknown {
    if (!isObject(schema)) return schema;
    const out: Json = {};
    for (const [key, value] of Object.entries(schema)) {
      switch (key) {
        case "x-nullable":
          if (value === true) out["nullable"] = true;
          break;
        case "discriminator":
          out["discriminator"] = typeof value === "string" ? { propertyName: value } : value;
          break;
        case "type":
          if (value === "file") {
            out["type"] = "string";
            out["format"] = "binary";
          } else if (Array.isArray(value)) {
            const types = value.filter((t) => t !== "null");
            if (types.length !== value.length) out["nullable"] = true;
            if (types.length === 1) out["type"] = types[0];
            else if (types.length > 1) {
              this.warn([...at, "type"], "a list of types has no OpenAPI 3.0 form; kept as anyOf");
              out["anyOf"] = types.map((t) => ({ type: t }));
            }
          } else {
            out["type"] = value;
          }
          break;
        case "format":
          if (schema["type"] !== "file") out["format"] = value;
          break;
        case "properties":
        case "patternProperties":
          if (isObject(value)) {
            const properties: Json = {};
            for (const [name, child] of Object.entries(value)) {
              properties[name] = this.convertSchema(child, [...at, key, name]);
            }
            out[key] = properties;
          } else {
            out[key] = value;
          }
          break;
        case "additionalProperties":
        case "not":
          out[key] = this.convertSchema(value, [...at, key]);
          break;
        case "items":
          if (Array.isArray(value)) {
            this.warn(
              [...at, "items"],
              "tuple items (a list of schemas) have no OpenAPI 3.0 form; kept as anyOf",
            );
            out["items"] = {
              anyOf: value.map((child, i) => this.convertSchema(child, [...at, "items", String(i)])),
            };
            this.move([...at, "items"], [...at, "items", "anyOf"]);
          } else {
            out["items"] = this.convertSchema(value, [...at, "items"]);
          }
          break;
        case "allOf":
        case "anyOf":
        case "oneOf":
          out[key] = Array.isArray(value)
            ? value.map((child, i) => this.convertSchema(child, [...at, key, String(i)]))
            : value;
          break;
        default:
          out[key] = value;
      }
    }
    if (schema["x-nullable"] === true && out["nullable"] === undefined) out["nullable"] = true;
    return out;
  }

  // -- refs ----------------------------------------------------------------------------------

  /** Rewrites every local `$ref` through the recorded moves; warns about refs that now miss. */
  private rewriteRefs(out: Json): void {
    const cache = new Map<string, string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) {
        for (const child of node) if (child !== null && typeof child === "object") walk(child);
        return;
      }
      if (!isObject(node)) return;
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string") {
          if (!value.startsWith("#/")) continue;
          let rewritten = cache.get(value);
          if (rewritten === undefined) {
            rewritten = this.mapRef(value);
            cache.set(value, rewritten);
          }
          node["$ref"] = rewritten;
        } else if (value !== null && typeof value === "object") {
          walk(value);
        }
      }
    };
    walk(out);
    const missing = new Set<string>();
    for (const [original, rewritten] of cache) {
      if (resolvePointer(out, rewritten) === undefined && !missing.has(original)) {
        missing.add(original);
        this.warn(
          splitPointer(original),
          `$ref "${original}" has no counterpart in the converted document (left as ${rewritten})`,
        );
      }
    }
  }

  private mapRef(ref: string): string {
    const tokens = splitPointer(ref);
    const prefixes: string[] = [];
    let acc = "";
    for (const token of tokens) {
      acc += `/${escapePointerToken(token)}`;
      prefixes.push(acc);
    }
    for (let i = tokens.length; i >= 1; i--) {
      const target = this.moves.get(prefixes[i - 1]!);
      if (target) return toRef([...target, ...tokens.slice(i)]);
    }
    return ref;
  }
}
