/**
 * What redacting every form of every secret costs per result: the one-pass scrubber
 * (dist/runtime/results/redact-secrets.js, forms from auth/secret-forms.js) against the
 * split/join loop over the raw values the bridge used before, on three bodies: plain JSON,
 * JSON written the PHP way (`\/` and `\u00e9` everywhere, so every string is decoded and
 * checked) and 1 MB of JSON (`--max-result-chars 0`). Medians of interleaved runs; writes
 * bench/results/redaction.md. Run after `npm run build`: `node bench/redaction.mjs`.
 */
import { writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { REPO_DIR, RESULTS_DIR } from "./lib.mjs";

const { basicCredentialForms, formsOf, headerValueForms, oauthClientForms } = await import(
  join(REPO_DIR, "dist/runtime/auth/secret-forms.js")
);
const { createScrubber } = await import(join(REPO_DIR, "dist/runtime/results/redact-secrets.js"));

const raw = ["sk-live-abcdef123456", "alice:hunter2-pw", "tok-987654321", 'client/secret"x', "k!'()*ey-7890"];
const forms = [
  ...formsOf(raw[0]),
  ...basicCredentialForms(raw[1]),
  ...headerValueForms(`Bearer ${raw[2]}`),
  ...oauthClientForms("my-client", raw[3]),
  ...formsOf(raw[4]),
];
/** The loop before: each raw value (and two encodings) split and joined over the text. */
const before = [...raw, ...raw.map((s) => Buffer.from(s).toString("base64")), ...raw.map(encodeURIComponent)];
const splitJoin = (text) => before.reduce((t, s) => t.split(s).join("[REDACTED]"), text);

const item = {
  id: "a1b2",
  name: "café/bar",
  url: "https://api.example.com/v1/items/a1b2",
  tags: ["x", "y"],
  n: 42,
};
/** Every tenth item echoes a credential, as an API that returns the request would. */
const withEcho = (i) => ({ ...item, i, ...(i % 10 === 0 ? { echo: `Bearer ${raw[2]} for ${raw[0]}` } : {}) });
const plain = JSON.stringify(Array.from({ length: 150 }, (_, i) => withEcho(i)));
const php = plain.replaceAll("/", "\\/").replaceAll("é", "\\u00e9");
const large = JSON.stringify(Array.from({ length: 9000 }, (_, i) => withEcho(i)));
const bodies = [
  ["plain JSON", plain],
  ["PHP-style JSON (\\/, \\u00e9)", php],
  ["1 MB of JSON", large],
];

const scrub = createScrubber(forms);
const ways = [
  ["scrubber (every form, one pass)", (text) => scrub(text)],
  ["split/join over raw values (before)", splitJoin],
];

for (const [body, text] of bodies) {
  for (const [way, run] of ways) {
    const out = run(text);
    if (out.includes(raw[0]) || out.includes(raw[2])) throw new Error(`${way} left a secret in ${body}`);
  }
}

const ROUNDS = 9;
const results = new Map();
for (let round = 0; round < ROUNDS; round++) {
  for (const [body, text] of bodies) {
    const order = round % 2 === 0 ? ways : [...ways].reverse();
    for (const [way, run] of order) {
      const n = text.length > 100_000 ? 5 : 200;
      const started = performance.now();
      for (let i = 0; i < n; i++) run(text);
      const perCall = (performance.now() - started) / n;
      const key = `${body}\u0000${way}`;
      results.set(key, [...(results.get(key) ?? []), perCall]);
    }
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const rows = [];
for (const [body, text] of bodies) {
  for (const [way] of ways) {
    const runs = results.get(`${body}\u0000${way}`);
    rows.push(
      `| ${body} (${text.length.toLocaleString("en-US")} chars) | ${way} | ${median(runs).toFixed(3)} ms |`,
    );
  }
}
const markdown = `# Redaction cost per result

- Date: ${new Date().toISOString()}
- Node: ${process.version} on ${os.type()} ${os.release()} ${os.arch()}
- Machine: ${os.cpus()[0]?.model ?? "unknown"}, nproc ${os.cpus().length}; load average at the end: ${os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(" ")}
- Forms redacted: ${new Set(forms).size} (from ${raw.length} secrets: an API key, an HTTP Basic pair, a
  --header bearer token, an OAuth2 client, a query key with \`!'()*\`); before: ${before.length} strings

Every tenth item of each body echoes two of the credentials (checked gone after each way).
Each body is scrubbed ${ROUNDS} rounds, the two ways interleaved (order alternating); the table
shows the median time per scrub. The scrubber also decodes every JSON string with a \`\\u\` or \`\\/\`
escape (where encoders differ), which is what the PHP-style body costs.

| Body | Way | Median per result |
| --- | --- | --- |
${rows.join("\n")}

## Command

\`\`\`sh
npm run build && node bench/redaction.mjs
\`\`\`
`;
writeFileSync(join(RESULTS_DIR, "redaction.md"), markdown);
process.stdout.write(markdown);
