/**
 * The two libraries the printer is built on, loaded through their published entry points: the
 * code writer ts-morph prints with (the code-block-writer package) and the TypeScript compiler,
 * whose scanner checks every module printed. Only the printer touches them. Both are loaded on
 * the first printer made, so a thread that only plans never pays for them; the compiler (9 MB
 * of CommonJS) goes through V8's code cache (code-cache.ts). `require`, not `import`: an ESM
 * import would first scan all of it for export names, which costs more than half a second.
 * Both are optional dependencies (a serve-only install leaves them out): `generate` checks for
 * them before any work (checkPrinterParts), and so does the first printer made.
 */
import { createRequire } from "node:module";
import type CodeBlockWriterType from "code-block-writer";
import type * as TypeScript from "typescript";
import { requireOptionalPackages } from "../../shared/optional-package.js";
import { preloadWithCodeCache } from "./code-cache.js";

export type CodeBlockWriter = CodeBlockWriterType;
export type { TypeScript };

export interface PrinterParts {
  CodeBlockWriter: typeof CodeBlockWriterType;
  ts: typeof TypeScript;
  /** Saves the code cache of the compiler; call once, after the first module is printed. */
  saveCodeCache: () => void;
}

let parts: PrinterParts | undefined;

/** The packages the printer loads; OMB_OPTIONAL_PACKAGE_MISSING names those not installed. */
export function checkPrinterParts(): void {
  requireOptionalPackages("generate", ["typescript", "code-block-writer"]);
}

/** Loads the code writer and the compiler once per thread. */
export function loadPrinterParts(): PrinterParts {
  if (parts === undefined) {
    checkPrinterParts();
    const requireHere = createRequire(import.meta.url);
    const saveCodeCache = preloadWithCodeCache([requireHere.resolve("typescript")]);
    const ts = requireHere("typescript") as typeof TypeScript;
    const writer = requireHere("code-block-writer") as { default: typeof CodeBlockWriterType };
    parts = { CodeBlockWriter: writer.default, ts, saveCodeCache };
  }
  return parts;
}
