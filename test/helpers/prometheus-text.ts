/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4): every line is a
 * `# HELP`, a `# TYPE`, a comment, blank, or a sample `name{label="value",...} value
 * [timestamp]` whose family was typed before it; names, label names, escapes and numbers are
 * checked, and anything else throws with the line. What a scraper would refuse, the test refuses.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  types: Map<string, string>;
  samples: Sample[];
  /** The value of the one sample with this name and (at least) these labels; undefined: none. */
  value(name: string, labels?: Record<string, string>): number | undefined;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);
const NUMBER = /^(?:[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|[+-]?Inf|NaN)$/;

/** The family a sample name belongs to (`x_bucket`, `x_sum`, `x_count` of histogram `x`). */
function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  for (const suffix of ["_bucket", "_sum", "_count", "_created"]) {
    if (name.endsWith(suffix)) {
      const base = name.slice(0, -suffix.length);
      const type = types.get(base);
      if (type === "histogram" || type === "summary") return base;
    }
  }
  return undefined;
}

function parseNumber(text: string, line: string): number {
  if (!NUMBER.test(text)) throw new Error(`not a number: ${JSON.stringify(text)} in ${JSON.stringify(line)}`);
  if (text.endsWith("Inf")) return text.startsWith("-") ? -Infinity : Infinity;
  return Number(text);
}

/** Labels from just after `{`; returns them and the index after `}`. */
function parseLabels(line: string, start: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = start;
  for (;;) {
    if (line[i] === "}") return { labels, end: i + 1 };
    const eq = line.indexOf("=", i);
    if (eq < 0) throw new Error(`bad labels in ${JSON.stringify(line)}`);
    const name = line.slice(i, eq);
    if (!LABEL_NAME.test(name))
      throw new Error(`bad label name ${JSON.stringify(name)} in ${JSON.stringify(line)}`);
    if (Object.hasOwn(labels, name)) throw new Error(`label ${name} twice in ${JSON.stringify(line)}`);
    if (line[eq + 1] !== '"') throw new Error(`unquoted label value in ${JSON.stringify(line)}`);
    let value = "";
    let j = eq + 2;
    for (;;) {
      const c = line[j];
      if (c === undefined) throw new Error(`unterminated label value in ${JSON.stringify(line)}`);
      if (c === '"') break;
      if (c === "\\") {
        const next = line[j + 1];
        if (next === "\\") value += "\\";
        else if (next === '"') value += '"';
        else if (next === "n") value += "\n";
        else throw new Error(`bad escape in ${JSON.stringify(line)}`);
        j += 2;
        continue;
      }
      value += c;
      j++;
    }
    labels[name] = value;
    i = j + 1;
    if (line[i] === ",") i++;
    else if (line[i] !== "}") throw new Error(`expected , or } in ${JSON.stringify(line)}`);
  }
}

export function parsePrometheusText(text: string): Exposition {
  if (text.length > 0 && !text.endsWith("\n")) throw new Error("the exposition does not end with a newline");
  const types = new Map<string, string>();
  const helps = new Set<string>();
  const samples: Sample[] = [];
  const seen = new Set<string>();
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    if (line.startsWith("#")) {
      const match = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (match === null) continue; // a plain comment
      const [, kind, name, rest] = match as unknown as [string, string, string, string];
      if (!METRIC_NAME.test(name)) throw new Error(`bad metric name in ${JSON.stringify(line)}`);
      if (kind === "TYPE") {
        if (!TYPES.has(rest)) throw new Error(`unknown type in ${JSON.stringify(line)}`);
        if (types.has(name)) throw new Error(`${name} typed twice`);
        types.set(name, rest);
      } else {
        if (helps.has(name)) throw new Error(`${name} has two HELP lines`);
        helps.add(name);
      }
      continue;
    }
    const nameEnd = line.search(/[{ ]/);
    if (nameEnd <= 0) throw new Error(`not a sample: ${JSON.stringify(line)}`);
    const name = line.slice(0, nameEnd);
    if (!METRIC_NAME.test(name)) throw new Error(`bad metric name in ${JSON.stringify(line)}`);
    if (familyOf(name, types) === undefined) throw new Error(`${name} has no TYPE line before it`);
    let rest = nameEnd;
    let labels: Record<string, string> = {};
    if (line[nameEnd] === "{") {
      const parsed = parseLabels(line, nameEnd + 1);
      labels = parsed.labels;
      rest = parsed.end;
    }
    if (line[rest] !== " ") throw new Error(`expected a space before the value in ${JSON.stringify(line)}`);
    const fields = line.slice(rest + 1).split(" ");
    if (fields.length < 1 || fields.length > 2) throw new Error(`bad value in ${JSON.stringify(line)}`);
    const value = parseNumber(fields[0] ?? "", line);
    if (fields[1] !== undefined && !/^-?\d+$/.test(fields[1]))
      throw new Error(`bad timestamp in ${JSON.stringify(line)}`);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`sample twice: ${JSON.stringify(line)}`);
    seen.add(key);
    samples.push({ name, labels, value });
  }
  return {
    types,
    samples,
    value(name, labels = {}) {
      const found = samples.filter(
        (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
      );
      if (found.length > 1)
        throw new Error(`${found.length} samples of ${name} have the labels ${JSON.stringify(labels)}`);
      return found[0]?.value;
    },
  };
}
