/**
 * A tool argument the runtime cannot put on the wire (e.g. a path argument of `..`, a header
 * value with CR/LF). Turned into an `isError` tool result naming the argument.
 */
export class ArgumentError extends Error {
  readonly argument: string;

  constructor(argument: string, message: string) {
    super(`${argument}: ${message}`);
    this.name = "ArgumentError";
    this.argument = argument;
  }
}
