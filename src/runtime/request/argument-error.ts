/**
 * A tool argument the runtime cannot put on the wire (e.g. a path argument of `..`, a header
 * value with CR/LF). Turned into an `isError` tool result naming the argument.
 */
export class ArgumentError extends Error {
  readonly argument: string;
  /** What is wrong with it, without the argument's name (the message has both). */
  readonly issue: string;

  constructor(argument: string, issue: string) {
    super(`${argument}: ${issue}`);
    this.name = "ArgumentError";
    this.argument = argument;
    this.issue = issue;
  }
}
