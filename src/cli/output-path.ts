/** `-o, --output`: an empty path is a usage error, not a write into the current directory. */
import { InvalidArgumentError } from "commander";

export function parseOutputPath(value: string): string {
  if (value.trim() === "") throw new InvalidArgumentError("expected a path, got an empty one");
  return value;
}
