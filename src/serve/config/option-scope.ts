/** Where each serve option belongs in a bridge of several APIs: the bridge's, or each API's. */
import { getOptionSpec, type OptionKey } from "../../runtime/config/option-table.js";

/**
 * What an option belongs to in a bridge of several APIs: `bridge` options (transport,
 * sessions, the mode) are the bridge's; `api` options each API may set for itself, and a value
 * for the whole bridge applies to every API that sets none; `api-only` options each API must
 * set for itself.
 */
export type OptionScope = "bridge" | "api" | "api-only";

/** Where an option belongs in a bridge of several APIs (see OptionScope). */
export function optionScope(key: OptionKey): OptionScope {
  const spec = getOptionSpec(key);
  if (spec.scope !== undefined) return spec.scope;
  // Code mode's sandbox runs programs that call any API's operations: it is the bridge's;
  // telemetry is the process's.
  return ["transport", "http", "tools", "code", "telemetry"].includes(spec.group) ? "bridge" : "api";
}
