/**
 * Checks and fix-ups on an OpenAPI 3.x document (3.0 or 3.1, or 2.0 after conversion), done
 * right after loading. Cheap semantic checks that the JSON Schema of OpenAPI cannot express
 * are warnings here: the planner can still make tools.
 */
import { createDiagnostic } from "../../../model/diagnostics.js";
import { HTTP_METHODS } from "../../../model/http-methods.js";
import { followLocalRef, joinPointer } from "../../../model/pointer.js";
import { isRecord as isObject } from "../../../model/records.js";
import type { Diagnostic } from "../../../model/types.js";
import type { OpenApiDocument } from "../openapi-document.js";

type Json = Record<string, unknown>;

/**
 * Server URLs may be relative to where the document is served (OpenAPI 3.x, 4.1.x "Server
 * Object"): for a spec fetched from a URL, make them absolute. Templated URLs (starting with
 * `{`) and absolute ones are left alone. Mutates `doc`.
 */
export function resolveRelativeServers(doc: Json, documentUrl: string): void {
  const fix = (servers: unknown): void => {
    if (!Array.isArray(servers)) return;
    for (const server of servers) {
      if (isObject(server) && typeof server["url"] === "string") {
        server["url"] = absoluteServerUrl(server["url"], documentUrl);
      }
    }
  };
  fix(doc["servers"]);
  for (const section of ["paths", "webhooks"]) {
    const items = doc[section];
    if (!isObject(items)) continue;
    for (const item of Object.values(items)) {
      if (!isObject(item)) continue;
      fix(item["servers"]);
      for (const method of HTTP_METHODS) {
        const operation = item[method];
        if (isObject(operation)) fix(operation["servers"]);
      }
    }
  }
}

export function absoluteServerUrl(url: string, documentUrl: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith("{")) return url;
  let base: URL;
  try {
    base = new URL(documentUrl);
  } catch {
    return url;
  }
  if (url.startsWith("//")) return `${base.protocol}${url}`;
  if (url.startsWith("/")) return `${base.origin}${url}`;
  const directory = `${base.origin}${base.pathname.replace(/[^/]*$/, "")}`;
  return `${directory}${url.replace(/^\.\//, "")}`;
}

/**
 * Semantic checks as warnings: duplicate operationIds (OMB_SPEC_DUPLICATE_OPERATION_ID) and
 * path template parameters without a matching `in: path` parameter, or the reverse
 * (OMB_SPEC_PATH_PARAM).
 */
export function checkOpenApi3(doc: OpenApiDocument, file: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  // The path and method of each operationId's first operation: its pointer is made only when
  // a diagnostic names it (escaping every operation's pointer was a third of this check).
  const operationIds = new Map<string, [template: string, method: string]>();
  const paths = doc["paths"];
  if (!isObject(paths)) return diagnostics;
  const follow = followRefsOnce(doc);
  for (const [template, rawItem] of Object.entries(paths)) {
    const item = follow(rawItem);
    if (!isObject(item)) continue;
    const inTemplate = new Set([...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!));
    const pathLevel = pathParameterNames(follow, item["parameters"]);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const pointerHere = () => joinPointer("paths", template, method);
      const operationId = operation["operationId"];
      if (typeof operationId === "string") {
        const first = operationIds.get(operationId);
        if (first === undefined) {
          operationIds.set(operationId, [template, method]);
        } else {
          diagnostics.push(
            createDiagnostic(
              "OMB_SPEC_DUPLICATE_OPERATION_ID",
              `operationId "${operationId}" is also used by ${joinPointer("paths", ...first)}`,
              {
                file,
                pointer: pointerHere(),
                hint: "operationIds must be unique; tool names for these operations are disambiguated",
              },
            ),
          );
        }
      }
      const declared = new Set(pathLevel);
      for (const name of pathParameterNames(follow, operation["parameters"])) declared.add(name);
      for (const name of inTemplate) {
        if (!declared.has(name)) {
          diagnostics.push(
            createDiagnostic("OMB_SPEC_PATH_PARAM", `path parameter "{${name}}" is not declared`, {
              file,
              pointer: pointerHere(),
              hint: `add a parameter with name: ${name}, in: path, required: true`,
            }),
          );
        }
      }
      for (const name of declared) {
        if (!inTemplate.has(name)) {
          diagnostics.push(
            createDiagnostic("OMB_SPEC_PATH_PARAM", `path parameter "${name}" does not appear in the path`, {
              file,
              pointer: pointerHere(),
            }),
          );
        }
      }
    }
  }
  return diagnostics;
}

/**
 * followLocalRef over `doc`, each `$ref` text resolved once: Graph beta's 22,361 operations name
 * the same few hundred shared parameters again and again (resolving each pointer anew was most of
 * this check). Only for the duration of the check: the document may change after it (overlays).
 */
function followRefsOnce(doc: Json): (value: unknown) => unknown {
  const resolved = new Map<string, unknown>();
  return (value) => {
    const ref = isObject(value) ? value["$ref"] : undefined;
    // Not a local ref: followLocalRef gives the node itself, which differs from site to site.
    if (typeof ref !== "string" || !ref.startsWith("#")) return followLocalRef(doc, value);
    if (resolved.has(ref)) return resolved.get(ref);
    const target = followLocalRef(doc, value);
    resolved.set(ref, target);
    return target;
  };
}

function pathParameterNames(follow: (value: unknown) => unknown, parameters: unknown): string[] {
  if (!Array.isArray(parameters)) return [];
  const names: string[] = [];
  for (const raw of parameters) {
    const parameter = follow(raw);
    if (isObject(parameter) && parameter["in"] === "path" && typeof parameter["name"] === "string") {
      names.push(parameter["name"]);
    }
  }
  return names;
}
