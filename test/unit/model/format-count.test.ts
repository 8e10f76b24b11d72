/** formatCount writes what `toLocaleString("en-US")` writes, without Intl for whole numbers. */
import { describe, expect, it } from "vitest";
import { formatCount } from "../../../src/model/format-count.js";

describe("formatCount", () => {
  const values = [
    0,
    1,
    12,
    999,
    1_000,
    1_223,
    20_000,
    99_999,
    100_000,
    999_999,
    1_000_000,
    12_345_678,
    -1,
    -999,
    -1_000,
    -1_234_567,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
    -0,
    1.5,
    1234.5678,
    1e21,
    Number.NaN,
    Number.POSITIVE_INFINITY,
  ];
  it.each(values)("%s as toLocaleString('en-US') writes it", (n) => {
    expect(formatCount(n)).toBe(n.toLocaleString("en-US"));
  });

  it("agrees with toLocaleString('en-US') on every power of ten and its neighbours", () => {
    for (let n = 1; n < Number.MAX_SAFE_INTEGER / 10; n *= 10) {
      for (const m of [n - 1, n, n + 1, -n]) expect(formatCount(m)).toBe(m.toLocaleString("en-US"));
    }
  });
});
