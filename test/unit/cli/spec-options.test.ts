/**
 * The spec and plan options come from one table: docs/serve.md's copy is the table rendered,
 * commander's options are the table's, a config file's keys are checked as the table says, and
 * the values map onto buildModel's options in one function.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { addPlanOptions, addSpecOptions } from "../../../src/cli/options.js";
import { readPlanKeys } from "../../../src/cli/serve-apis.js";
import { DEFAULT_DESCRIPTION_BUDGET } from "../../../src/generator/compile/budgets.js";
import {
  listPlanOptionKeys,
  PLAN_OPTION_KEYS,
  PLAN_OPTION_MARKERS,
  PLAN_OPTIONS,
  renderPlanOptionTable,
  toBuildOptions,
} from "../../../src/generator/compile/plan-option-table.js";
import { CLIENT_PROFILES } from "../../../src/generator/compile/profile.js";
import { readMarkedSection } from "../../../src/generator/shared/markdown.js";
import type { BridgeError } from "../../../src/model/diagnostics.js";

const readme = readFileSync(join(import.meta.dirname, "..", "..", "..", "docs", "serve.md"), "utf8");

describe("the plan option table", () => {
  it("is docs/serve.md's table of spec options (run `npm run options-table` to update it)", () => {
    expect(readMarkedSection(readme, PLAN_OPTION_MARKERS)).toBe(renderPlanOptionTable());
  });

  it("gives commander one option per entry, in its order, read under the table's key", () => {
    const spec = addSpecOptions(new Command("x"));
    expect(spec.options.map((o) => o.attributeName())).toEqual(PLAN_OPTION_KEYS);
    const plan = addPlanOptions(new Command("x"));
    expect(plan.options.map((o) => o.attributeName())).toEqual(listPlanOptionKeys("load", "plan"));
    const profile = spec.options.find((o) => o.attributeName() === "profile")!;
    expect(profile.argChoices).toEqual([...CLIENT_PROFILES]);
    expect(profile.defaultValue).toBe("mcp");
  });

  it("cites the components' defaults in help", () => {
    expect(PLAN_OPTIONS.descriptionBudget.help).toContain(`(default ${DEFAULT_DESCRIPTION_BUDGET})`);
  });

  it("parses flags as the table says", () => {
    const command = addSpecOptions(new Command("x")).exitOverride();
    command.parse(
      [
        "--ref-root",
        "a",
        "--ref-root",
        "b",
        "--description-budget",
        "60",
        "--no-validate",
        "--profile",
        "claude",
      ],
      { from: "user" },
    );
    expect(command.opts()).toEqual({
      refRoot: ["a", "b"],
      descriptionBudget: 60,
      validate: false,
      cache: true,
      profile: "claude",
    });
    expect(() =>
      addSpecOptions(new Command("x"))
        .exitOverride()
        .configureOutput({ writeErr: () => {} })
        .parse(["--description-budget", "39"], { from: "user" }),
    ).toThrow(/at least 40/);
  });
});

describe("toBuildOptions", () => {
  it("gives switches their defaults, passes the rest on only when given, and names refRoots", () => {
    expect(toBuildOptions({})).toEqual({
      allowNetworkRefs: false,
      validate: true,
      strict: false,
      outputSchemas: false,
      resultSchemas: false,
      cache: true,
    });
    expect(
      toBuildOptions({
        refRoot: ["/a"],
        maxSpecBytes: 5,
        profile: "cursor",
        serverName: "s",
        validate: false,
      }),
    ).toEqual({
      allowNetworkRefs: false,
      refRoots: ["/a"],
      maxSpecBytes: 5,
      validate: false,
      strict: false,
      outputSchemas: false,
      resultSchemas: false,
      cache: true,
      profile: "cursor",
      serverName: "s",
    });
    expect(toBuildOptions({ refRoot: [] })).not.toHaveProperty("refRoots");
  });
});

describe("a config file's spec options", () => {
  const context = { file: "/x/bridge.yaml", dir: "/x", where: "apis.erp." };
  const read = (extra: Record<string, unknown>) => readPlanKeys(extra, {}, context);
  const problem = (extra: Record<string, unknown>): string => {
    try {
      read(extra);
    } catch (error) {
      return (error as BridgeError).diagnostics.map((d) => `${d.code} ${d.message}`).join("\n");
    }
    return "no problem";
  };

  it("takes the table's key or the flag's name, paths from the file's folder", () => {
    expect(
      read({
        "description-budget": 90,
        argumentDescriptionBudget: 0,
        "ref-root": "r",
        overrides: "o.yaml",
        validate: false,
      }),
    ).toEqual({
      descriptionBudget: 90,
      argumentDescriptionBudget: 0,
      refRoot: ["/x/r"],
      overrides: "/x/o.yaml",
      validate: false,
    });
    expect(read({ refRoot: ["/abs", "rel"] })).toEqual({ refRoot: ["/abs", "/x/rel"] });
  });

  it("checks each value as the table says", () => {
    expect(problem({ "result-schemas": true })).toMatch(
      /^OMB_BRIDGE_CONFIG apis\.erp\.result-schemas: is no serve option/,
    );
    expect(problem({ profile: "gemini" })).toBe(
      "OMB_BRIDGE_CONFIG apis.erp.profile: must be mcp, claude, openai or cursor",
    );
    expect(problem({ cache: "no" })).toBe("OMB_BRIDGE_CONFIG apis.erp.cache: must be true or false");
    expect(problem({ "description-budget": 10 })).toBe(
      "OMB_BRIDGE_CONFIG apis.erp.description-budget: must be a whole number of at least 40",
    );
    expect(problem({ argumentDescriptionBudget: -1 })).toBe(
      "OMB_BRIDGE_CONFIG apis.erp.argumentDescriptionBudget: must be a whole number",
    );
    expect(problem({ serverName: "" })).toBe("OMB_BRIDGE_CONFIG apis.erp.serverName: must be a string");
    expect(problem({ overrides: 3 })).toBe("OMB_BRIDGE_CONFIG apis.erp.overrides: must be a path");
  });
});
