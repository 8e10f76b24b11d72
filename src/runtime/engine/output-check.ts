/**
 * A successful answer checked against the tool's documented response schema (the outline a
 * result carries says when it does not match).
 */
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import type { ToolNode } from "../../model/types.js";
import { createOutputAjv } from "../arguments/bounded-formats.js";
import { PatternLimitError, withMatchBudget } from "../regex/bounded-regexp.js";

/** Why the value does not match the documented schema, or undefined when it does. */
export type OutputCheck = (value: unknown) => string | undefined;

/**
 * The output checks of one API's tools: Ajv is made on the first tool with an output schema,
 * and each tool's check is compiled once. One Ajv per API: schemas of different APIs may reuse
 * an `$id`.
 */
export function createOutputChecks(): (tool: ToolNode) => OutputCheck | undefined {
  let outputChecker: AjvJsonSchemaValidator | undefined;
  const checks = new Map<string, OutputCheck>();
  return (tool) => {
    if (!tool.outputSchema) return undefined;
    let check = checks.get(tool.name);
    if (!check) {
      outputChecker ??= new AjvJsonSchemaValidator(createOutputAjv());
      const validate = outputChecker.getValidator(tool.outputSchema as Record<string, unknown>);
      check = (value: unknown) => {
        let outcome: ReturnType<typeof validate>;
        try {
          outcome = withMatchBudget(() => validate(value));
        } catch (error) {
          if (!(error instanceof PatternLimitError)) throw error;
          return `it could not be checked against the documented response schema in bounded time (${error.message})`;
        }
        return outcome.valid
          ? undefined
          : `it does not match the documented response schema (${outcome.errorMessage})`;
      };
      checks.set(tool.name, check);
    }
    return check;
  };
}
