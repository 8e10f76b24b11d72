/** One way to write a number of bytes in every message. */
import { describe, expect, it } from "vitest";
import { formatBytes } from "../../../src/model/format-bytes.js";

describe("formatBytes", () => {
  it.each([
    [0, "0 bytes"],
    [1, "1 byte"],
    [1023, "1023 bytes"],
    [1024, "1 KiB"],
    [3000, "2.9 KiB"],
    [4096, "4 KiB"],
    [60_000, "58.6 KiB"],
    [256 * 1024, "256 KiB"],
    [1024 * 1024 - 1, "1.0 MiB"],
    [1024 * 1024, "1 MiB"],
    [1.5 * 1024 * 1024, "1.5 MiB"],
    [10 * 1024 * 1024, "10 MiB"],
    [100_000_000, "95.4 MiB"],
    [128 * 1024 * 1024, "128 MiB"],
    [1024 ** 3, "1 GiB"],
    [2048 * 1024 ** 3, "2,048 GiB"],
    [1.25 * 1024 ** 3, "1.3 GiB"],
  ])("%d bytes: %s", (bytes, want) => {
    expect(formatBytes(bytes)).toBe(want);
  });
});
