/**
 * The baseline: plain BM25 (Okapi, k1 1.5, b 0.75) over one text per tool, its name,
 * description and each input property's name and description, lower-cased and split on
 * non-alphanumerics, tokens of one character dropped: the way FastMCP's BM25 search transform
 * ranks tools. Ties keep the tools' order; only positive scores are returned.
 */
const K1 = 1.5;
const B = 0.75;

const tokenize = (text) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((token) => token.length > 1);

function toText(tool) {
  const parts = [tool.name, tool.description];
  const properties = tool.inputSchema?.properties ?? {};
  for (const [name, schema] of Object.entries(properties)) {
    parts.push(name);
    if (
      schema &&
      typeof schema === "object" &&
      typeof schema.description === "string" &&
      schema.description !== ""
    ) {
      parts.push(schema.description);
    }
  }
  return parts.join(" ");
}

export function createBaselineSearch(tools) {
  const tf = [];
  const lengths = [];
  const df = new Map();
  const postings = new Map();
  tools.forEach((tool, i) => {
    const tokens = tokenize(toText(tool));
    const counts = new Map();
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const token of counts.keys()) {
      df.set(token, (df.get(token) ?? 0) + 1);
      const list = postings.get(token);
      if (list) list.push(i);
      else postings.set(token, [i]);
    }
    tf.push(counts);
    lengths.push(tokens.length);
  });
  const n = tools.length;
  const average = lengths.reduce((a, b) => a + b, 0) / Math.max(n, 1);
  return {
    search(query, limit) {
      const scores = new Float64Array(n);
      const touched = new Set();
      for (const token of tokenize(query)) {
        const count = df.get(token);
        if (count === undefined) continue;
        const idf = Math.log((n - count + 0.5) / (count + 0.5) + 1);
        for (const i of postings.get(token)) {
          const f = tf[i].get(token);
          scores[i] += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * lengths[i]) / average));
          touched.add(i);
        }
      }
      return [...touched]
        .filter((i) => scores[i] > 0)
        .sort((a, b) => scores[b] - scores[a] || a - b)
        .slice(0, limit)
        .map((i) => tools[i].name);
    },
  };
}
