/**
 * One vocabulary of diagnostics: every code a source file reports is in the catalog, every
 * catalog entry is reported somewhere (or says why it is reserved), diagnostics take their
 * default severity from it, and docs/diagnostics.md's table is the catalog's.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import {
  readCodesSection,
  renderDiagnosticCodesTable,
} from "../../../src/generator/shared/diagnostic-codes-table.js";
import {
  DIAGNOSTIC_CODES,
  type DiagnosticCode,
  isDiagnosticCode,
} from "../../../src/model/diagnostic-codes.js";
import { BridgeError, createDiagnostic, failWith } from "../../../src/model/diagnostics.js";

const root = join(import.meta.dirname, "../../..");
const CATALOG_FILE = "src/model/diagnostic-codes.ts";

function listSources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? listSources(join(dir, entry.name))
      : /\.(ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/**
 * Every `"OMB_..."` string literal of src/ and templates/ but the catalog's own, with where it
 * is. Environment variable names (`env["OMB_PRINT_WORKERS"]`) are not codes.
 */
function findCodeLiterals(): { code: string; file: string }[] {
  const found: { code: string; file: string }[] = [];
  for (const file of [...listSources("src"), ...listSources("templates")]) {
    const path = relative(root, join(root, file));
    if (path === CATALOG_FILE) continue;
    const text = readFileSync(join(root, file), "utf8");
    for (const match of text.matchAll(/(env\[\s*)?"(OMB_[A-Z0-9_]+)"/g)) {
      if (match[1] === undefined) found.push({ code: match[2]!, file: path });
    }
  }
  return found;
}

const literals = findCodeLiterals();
const used = new Set(literals.map((l) => l.code));
const entries = Object.entries(DIAGNOSTIC_CODES) as [
  DiagnosticCode,
  (typeof DIAGNOSTIC_CODES)[DiagnosticCode],
][];

describe("the catalog of diagnostic codes", () => {
  it("finds the code literals it checks", () => {
    expect(literals.length).toBeGreaterThan(60);
    expect(used.size).toBeGreaterThan(40);
  });

  it.each(literals.map((l) => [l.code, l.file]))("%s (%s) is in the catalog", (code) => {
    expect(isDiagnosticCode(code)).toBe(true);
  });

  it.each(entries.map(([code, entry]) => [code, entry]))(
    "%s is reported somewhere, or reserved for a stated reason",
    (code, entry) => {
      const { reserved } = entry as { reserved?: string };
      if (reserved !== undefined) expect(reserved.length).toBeGreaterThan(10);
      else expect(used.has(code), `${code} is in the catalog but no source file reports it`).toBe(true);
    },
  );

  it.each(entries.map(([code, entry]) => [code, entry]))(
    "%s has a title, a severity and a fix",
    (code, entry) => {
      expect(code).toMatch(/^OMB_[A-Z0-9]+(_[A-Z0-9]+)*$/);
      expect(["error", "warning", "info"]).toContain(entry.severity);
      expect(entry.title.length).toBeGreaterThan(10);
      expect(entry.title).not.toMatch(/\.$/);
      // A fix reads like a hint: lower case first, no final period.
      expect(entry.fix.length).toBeGreaterThan(10);
      expect(entry.fix).toMatch(/^[a-z-]/);
      expect(entry.fix).not.toMatch(/\.$/);
    },
  );

  it.each(entries.map(([code, entry]) => [code, entry.severity]))(
    "createDiagnostic(%s) defaults to its severity, %s, and sets no hint of its own",
    (code, severity) => {
      expect(createDiagnostic(code, "m")).toEqual({ code, severity, message: "m" });
      expect(createDiagnostic(code, "m", { severity: "info" }).severity).toBe("info");
    },
  );

  it("failWith throws one diagnostic of the code", () => {
    let thrown: unknown;
    try {
      failWith("OMB_BASE_URL", "bad", { hint: "h" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(BridgeError);
    expect((thrown as BridgeError).diagnostics).toEqual([
      { code: "OMB_BASE_URL", severity: "error", message: "bad", hint: "h" },
    ]);
    expect(new BridgeError([]).code).toBe("OMB_ERROR");
  });

  it("tells a catalog code from any other string", () => {
    expect(isDiagnosticCode("OMB_SPEC_INVALID")).toBe(true);
    expect(isDiagnosticCode("OMB_NO_SUCH_CODE")).toBe(false);
    expect(isDiagnosticCode("toString")).toBe(false);
  });
});

describe("docs/diagnostics.md's table of codes", () => {
  const readme = readFileSync(join(root, "docs", "diagnostics.md"), "utf8");

  it("is the catalog's (npm run docs:codes rewrites it)", () => {
    expect(
      readCodesSection(readme),
      "docs/diagnostics.md's table of codes is out of date: run npm run docs:codes",
    ).toBe(renderDiagnosticCodesTable());
  });

  it("has one row per code, in catalog order", () => {
    const rows = (readCodesSection(readme) ?? "").split("\n").slice(2);
    expect(rows.map((row) => /^\| `([A-Z0-9_]+)` +\|/.exec(row)?.[1])).toEqual(Object.keys(DIAGNOSTIC_CODES));
  });

  it("escapes a pipe inside a cell", () => {
    const table = renderDiagnosticCodesTable({ OMB_X: { title: "a | b", severity: "info", fix: "c" } });
    expect(table.split("\n")).toEqual([
      "| code    | severity | what it means | fix |",
      "| ------- | -------- | ------------- | --- |",
      "| `OMB_X` | info     | a \\| b        | c   |",
    ]);
  });
});
