/**
 * A number of bytes as people read it, the one way every message writes it (limits, sizes of
 * answers, spec files): `512 bytes`, `4 KiB`, `2.9 KiB`, `10 MiB`, `1.5 GiB`. A whole number of
 * the largest binary unit it reaches is written exactly; anything else to one decimal.
 */
import { formatCount } from "./format-count.js";

const UNITS: ReadonlyArray<readonly [name: string, size: number]> = [
  ["GiB", 1024 ** 3],
  ["MiB", 1024 ** 2],
  ["KiB", 1024],
];

export function formatBytes(bytes: number): string {
  for (const [index, [name, size]] of UNITS.entries()) {
    if (bytes < size) continue;
    const value = bytes / size;
    if (Number.isInteger(value)) return `${formatCount(value)} ${name}`;
    const rounded = Math.round(value * 10) / 10;
    // 1,048,575 bytes is 1024.0 KiB to one decimal: the next unit says it better.
    const larger = UNITS[index - 1];
    if (rounded >= 1024 && larger) return `1.0 ${larger[0]}`;
    return `${rounded.toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 })} ${name}`;
  }
  return bytes === 1 ? "1 byte" : `${bytes} bytes`;
}
