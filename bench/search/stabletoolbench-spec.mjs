/**
 * StableToolBench's endpoints as one OpenAPI 3.0 document: the union of every query's
 * `api_list` (2,479 RapidAPI endpoints), one operation per endpoint, so that the pool is planned
 * by the bridge's own pipeline and searched as the tools the bridge serves.
 *
 * The data has no paths (RapidAPI gives each tool its own host), so each endpoint gets
 * `/{tool}/{endpoint}` as slugs, the tool standing in for the host. operationId is ToolBench's
 * own function name (`{endpoint}_for_{tool}`, as ToolLLM shows these endpoints to a model),
 * summary the endpoint's name, description its description, the tool its tag (the category in
 * the tag's description), parameters as query parameters with their types, descriptions and
 * defaults. Every endpoint in the data is a GET.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** `Get Word by Length and Start` → `get_word_by_length_and_start` (ToolBench's spelling). */
export function toSlug(text) {
  const slug = text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return slug === "" ? "x" : slug;
}

const TYPES = {
  STRING: { type: "string" },
  NUMBER: { type: "number" },
  BOOLEAN: { type: "boolean" },
  ENUM: { type: "string" },
  ARRAY: { type: "array", items: {} },
  OBJECT: { type: "object" },
  BINARY: { type: "string" },
  "DATE (YYYY-MM-DD)": { type: "string", format: "date" },
  "TIME (24-hour HH:MM)": { type: "string" },
};

function toParameter(parameter, required) {
  const schema = {
    ...(TYPES[String(parameter.type).toUpperCase()] ?? TYPES[parameter.type] ?? { type: "string" }),
  };
  if (
    parameter.default !== undefined &&
    parameter.default !== "" &&
    schema.type !== "array" &&
    schema.type !== "object"
  ) {
    schema.example = parameter.default;
  }
  return {
    name: parameter.name,
    in: "query",
    required,
    ...(parameter.description ? { description: parameter.description } : {}),
    schema,
  };
}

/** Required parameters, then optional ones; a name given twice is kept once (the first). */
function toParameters(api) {
  const seen = new Set();
  const out = [];
  for (const [list, required] of [
    [api.required_parameters, true],
    [api.optional_parameters, false],
  ]) {
    for (const parameter of list) {
      if (seen.has(parameter.name)) continue;
      seen.add(parameter.name);
      out.push(toParameter(parameter, required));
    }
  }
  return out;
}

/** The query files of the set, sorted by name. */
export function readStableToolBench(dir) {
  return readdirSync(dir)
    .filter((f) => /^G\d_.*\.json$/.test(f))
    .sort()
    .map((file) => ({ file, queries: JSON.parse(readFileSync(join(dir, file), "utf8")) }));
}

/**
 * The document, and where each endpoint went: `tool\u0000endpoint` → `GET /path`.
 * Endpoints are taken in the order the files list them (first occurrence wins).
 */
export function buildStableToolBenchSpec(files) {
  const paths = {};
  const tags = new Map();
  const where = new Map();
  const usedPaths = new Set();
  const usedIds = new Set();
  for (const { queries } of files) {
    for (const query of queries) {
      for (const api of query.api_list) {
        const key = `${api.tool_name}\u0000${api.api_name}`;
        if (where.has(key)) continue;
        const tool = toSlug(api.tool_name);
        let path = `/${tool}/${toSlug(api.api_name)}`;
        for (let i = 2; usedPaths.has(path); i++) path = `/${tool}/${toSlug(api.api_name)}_${i}`;
        usedPaths.add(path);
        let id = `${toSlug(api.api_name)}_for_${tool}`;
        for (let i = 2; usedIds.has(id); i++) id = `${toSlug(api.api_name)}_${i}_for_${tool}`;
        usedIds.add(id);
        const method = String(api.method).toLowerCase();
        paths[path] = {
          [method]: {
            operationId: id,
            summary: api.api_name,
            ...(api.api_description ? { description: api.api_description } : {}),
            tags: [api.tool_name],
            parameters: toParameters(api),
            responses: { 200: { description: "OK" } },
          },
        };
        if (!tags.has(api.tool_name)) tags.set(api.tool_name, api.category_name);
        where.set(key, `${method.toUpperCase()} ${path}`);
      }
    }
  }
  const document = {
    openapi: "3.0.3",
    info: {
      title: "StableToolBench endpoints",
      version: "1.0.0",
      description: "The RapidAPI endpoints of StableToolBench's test queries, one operation each.",
    },
    servers: [{ url: "http://127.0.0.1:9" }],
    tags: [...tags].map(([name, category]) => ({ name, description: `Category: ${category}` })),
    paths,
  };
  return { document, where };
}
