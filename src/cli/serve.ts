/**
 * `serve SPEC...`: the live bridge over stdio or Streamable HTTP. Its runtime options come from
 * the runtime's option table (flags and OPENAPI_MCP_* variables, as a generated server takes
 * them) and it starts through the same startBridge; only the spec options are its own.
 * Several specs (or `--config FILE`) are served as several APIs under namespaces (serve-apis.ts).
 */
import { Command } from "commander";
import type { CacheWriteExtras, DeferredCacheWrite } from "../generator/compile/model-cache.js";
import { createDiagnostic, failWith, formatDiagnostic } from "../model/diagnostics.js";
import { OPTION_KEYS } from "../runtime/config/option-table.js";
import { readSettings } from "../runtime/config/read-settings.js";
import { toTransport } from "../runtime/config/to-options.js";
import { startSharingTerms } from "../runtime/discovery/search/shared-terms.js";
import type { SlicePace } from "../runtime/engine/run-in-slices.js";
import { finishCacheWriteOnExit } from "./cache-write-on-exit.js";
import { addSpecOptions, parseAtLeast, readModelOrSpec, type SpecFlags } from "./options.js";
import {
  type ApiSource,
  chooseNamespaces,
  DEFAULT_WATCH_INTERVAL_MS,
  type LoadedApi,
  lacksResultOutlines,
  listConfigApis,
  reportSpecDiagnostics,
  toApiInputs,
} from "./serve-apis.js";
import { addTableOptions, readTableFlags } from "./table-options.js";

interface ServeFlags extends SpecFlags {
  verbose?: boolean;
  namespace?: string[];
  config?: string;
  watch?: boolean;
  watchInterval?: number;
}

const HELP = "`openapi-mcp-bridge serve --help`";

function collectList(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(",")
      .map((v) => v.trim())
      .filter((v) => v !== ""),
  ];
}

export function createServeCommand(): Command {
  const command = new Command("serve")
    .description(
      "serve OpenAPI specs (or saved models) as MCP tools, calling the real API; several specs are served under namespaces",
    )
    .argument("[specs...]", "spec file, http(s) URL, - for stdin, or a model file saved by `model`");
  addTableOptions(command, OPTION_KEYS);
  command
    .option(
      "--namespace <names>",
      "the namespaces of the specs, in their order (comma-separated, repeatable): tools are named NAMESPACE__TOOL; default: from each spec's title when there are several",
      collectList,
    )
    .option(
      "--config <file>",
      "a JSON or YAML file of the APIs to serve, each with its spec and options (see Several APIs)",
    )
    .option(
      "--watch",
      "reload a spec when it changes (a file is watched, a URL polled) and tell clients the tools changed (see Hot reload)",
    )
    .option(
      "--watch-interval <ms>",
      `how often a watched spec URL is asked whether it changed, in milliseconds (default ${DEFAULT_WATCH_INTERVAL_MS})`,
      parseAtLeast(1),
    )
    .option("--verbose", "print every spec diagnostic to stderr");
  addSpecOptions(command);
  return command.action(async (specs: string[], flags: ServeFlags) => {
    // Checked before any spec is read: a bad option fails at once, not after the planning.
    const tableFlags = readTableFlags(flags, OPTION_KEYS);
    const flagSettings = readSettings(tableFlags, {}, { help: HELP });
    const cliSettings = readSettings(tableFlags, process.env, { help: HELP });
    const config =
      flags.config === undefined
        ? undefined
        : await (await import("../serve/config/bridge-config.js")).readBridgeConfig(
            flags.config,
            process.env,
          );
    const watch = readWatchFlags(flags, config !== undefined);
    const sources = listSources(
      specs,
      flags,
      watch,
      config === undefined ? undefined : listConfigApis(config, flags, watch),
    );
    for (const source of sources) {
      if (source.watch !== undefined && source.spec === "-") {
        failWith("OMB_WATCH", "--watch: standard input (-) cannot be watched", {
          hint: "save the spec to a file and serve that file with --watch",
        });
      }
    }
    const settings = { ...config?.settings, ...cliSettings };
    if (toTransport(settings) === "stdio" && sources.some((s) => s.spec === "-")) {
      failWith(
        "OMB_STDIN_CONFLICT",
        "serve -: over stdio, standard input carries the MCP messages, so it cannot carry the spec too",
        { hint: "save the spec to a file and serve that, or serve it with --transport http" },
      );
    }
    // Code mode's signatures show what each call gives: its result outline is planned too.
    const codeMode = settings.mode === "code";
    // Discovery and code mode read a tool's description, input schema and result fields when it
    // is searched for, described or called: they are made then (tools and auto mode list every
    // tool at once).
    const planLazily = codeMode || settings.mode === "discovery";
    const load = (source: ApiSource, deferCacheWrite?: (write: DeferredCacheWrite) => void) =>
      readModelOrSpec(
        source.spec,
        { ...source.flags, ...(codeMode ? { resultSchemas: true } : {}) },
        undefined,
        deferCacheWrite,
        planLazily,
      );
    // A spec planned at this start is saved in the model cache once the bridge answers: the
    // first tools/list does not wait for the write (seconds on a huge API), which runs in slices
    // between requests. A reload (--watch) writes before it swaps the tools, as before.
    const cacheWrites: DeferredCacheWrite[] = [];
    const apis: LoadedApi[] = [];
    for (const source of sources) {
      const model = await load(source, (write) => cacheWrites.push(write));
      reportSpecDiagnostics(model, flags.verbose === true, sources.length > 1 ? `${source.where}: ` : "");
      if (codeMode && lacksResultOutlines(model)) {
        const where = sources.length > 1 ? `${source.where}: ` : "";
        const diagnostic = createDiagnostic(
          "OMB_MODEL_NO_RESULTS",
          `${where}the saved model ${source.spec} has no result outlines: code mode's signatures type every answer unknown`,
          { hint: "save it with `model SPEC --result-schemas -o FILE`, or serve the spec" },
        );
        process.stderr.write(`openapi-mcp-bridge: ${formatDiagnostic(diagnostic)}\n`);
      }
      apis.push({ ...source, model });
    }
    const namespaces = chooseNamespaces(apis);
    const inputs = toApiInputs({
      apis,
      namespaces,
      settings,
      flagSettings,
      ...(config ? { config: config.settings } : {}),
      env: process.env,
      help: HELP,
      load,
    });
    const { startBridge } = await import("../serve/start-bridge.js");
    // The runtime's search and the pending write's saved index share each tool's terms.
    const stopSharingTerms = cacheWrites.length > 0 ? startSharingTerms() : undefined;
    const pace: SlicePace = { hurried: false };
    let written: Promise<void> = Promise.resolve();
    const running = await startBridge(inputs, settings, {
      name: "openapi-mcp-bridge",
      env: process.env,
      help: HELP,
      // Over HTTP, SIGTERM or SIGINT stops the server, then the write finishes without pauses.
      beforeExit: () => {
        pace.hurried = true;
        return written;
      },
    });
    // Tools mode lists every operation with its contract digest: the entry keeps them for the
    // next start. The runtime says what it serves (auto's choice made, the selection applied).
    const contractDigests = running.runtime.mode.mode === "tools";
    written = runInTurn(cacheWrites, pace, { contractDigests });
    if (stopSharingTerms !== undefined) void written.then(stopSharingTerms);
    if (cacheWrites.length > 0 && toTransport(settings) === "stdio") finishCacheWriteOnExit(written, pace);
  });
}

/** The model cache's writes one after another (each settles, never rejects: model-cache.ts). */
async function runInTurn(
  writes: readonly DeferredCacheWrite[],
  pace: SlicePace,
  extras: CacheWriteExtras,
): Promise<void> {
  for (const write of writes) await write(pace, extras);
}

/** `--watch` and its interval; an interval without `--watch` (or a config that watches) is a mistake. */
function readWatchFlags(flags: ServeFlags, configured: boolean): ApiSource["watch"] {
  if (flags.watch === true) return { intervalMs: flags.watchInterval ?? DEFAULT_WATCH_INTERVAL_MS };
  if (flags.watchInterval !== undefined && !configured) {
    failWith("OMB_WATCH", "--watch-interval is given without --watch", {
      hint: "add --watch to reload the spec when it changes",
    });
  }
  return undefined;
}

/** The specs on the command line, or the config file's APIs (not both). */
function listSources(
  specs: string[],
  flags: ServeFlags,
  watch: ApiSource["watch"],
  fromConfig: ApiSource[] | undefined,
): ApiSource[] {
  const namespaces = flags.namespace ?? [];
  if (fromConfig !== undefined) {
    if (specs.length > 0 || namespaces.length > 0) {
      failWith("OMB_BRIDGE_CONFIG", "--config names the APIs to serve: give no spec or --namespace besides", {
        hint: "add the spec to the config file's apis, with its namespace",
      });
    }
    return fromConfig;
  }
  if (specs.length === 0) {
    failWith("OMB_SPEC_MISSING", "serve needs a spec to serve", {
      hint: "give a spec file, an http(s) URL, - for stdin or a saved model; several specs, or --config FILE, for several APIs",
    });
  }
  if (namespaces.length > specs.length) {
    failWith(
      "OMB_NAMESPACE",
      `--namespace names ${namespaces.length} namespaces for ${specs.length} spec(s)`,
      {
        hint: "give one namespace per spec, in the order of the specs",
      },
    );
  }
  if (specs.length > 1 && flags.overrides !== undefined) {
    failWith("OMB_BRIDGE_CONFIG", "--overrides applies to one spec; several are served", {
      hint: "give each API its overrides in a config file (--config): apis: { erp: { spec: ..., overrides: ... } }",
    });
  }
  return specs.map((spec, index) => ({
    spec,
    ...(namespaces[index] !== undefined ? { namespace: namespaces[index] } : {}),
    settings: {},
    flags,
    where: spec,
    ...(watch !== undefined ? { watch } : {}),
  }));
}
