/**
 * The JavaScript that runs inside each sandbox before the program: it builds `api` and
 * `console` on two host functions and then hides them, so the program sees only what it is
 * meant to. Everything crosses the boundary as strings of JSON (arguments out, answers in,
 * console text out): the program never holds a value of the host, so there is no host
 * prototype to climb.
 *
 * - `api.<name>(args)`: the arguments as JSON, `{}` when absent; a promise of the operation's
 *   parsed result, or a rejection with an ApiError that carries the tool result's words and
 *   facts (status, category, retryable, the API's own message) and the program line of the call.
 * - `console.log/info/warn/error/debug`: strings as they are, other values as JSON.
 * - `__describe(error)` and `__json(value)`, for the host: what was thrown, and the return value
 *   as JSON text. They are frozen functions of the prelude, not the program's.
 */
/**
 * Starts the text of a call with options (`api.<name>(args, { fields })`): `<mark>{"args", "fields"}`.
 * A plain call's text is the arguments' JSON object, which starts with `{`.
 */
export const CALL_OPTIONS_MARK = "\u0001";

export const PRELUDE = `(function (hostCall, hostLog, global) {
  "use strict";
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const programLine = (stack) => {
    const match = /program\\.js:(\\d+)/.exec(String(stack || ""));
    return match ? Number(match[1]) - 1 : undefined;
  };
  class ApiError extends Error {
    constructor(operation, facts, line) {
      super(facts.message);
      this.name = "ApiError";
      this.operation = operation;
      if (facts.status !== undefined) this.status = facts.status;
      this.category = facts.category;
      this.retryable = facts.retryable === true;
      if (facts.apiMessage !== undefined) this.apiMessage = facts.apiMessage;
      if (line !== undefined) this.line = line;
    }
  }
  const call = (name, args, options) => {
    const line = programLine(new Error().stack);
    let text = "{}";
    if (args !== undefined) {
      text = stringify(args);
      if (typeof text !== "string" || text[0] !== "{") {
        throw new TypeError("api." + name + "(args): args must be an object of JSON values, like { id: 1 }");
      }
    }
    if (options !== undefined && options !== null) {
      if (typeof options !== "object" || Array.isArray(options)) {
        throw new TypeError("api." + name + "(args, options): options must be an object, like { fields: ['items[].id'] }");
      }
      // The call's options travel ahead of the arguments, after a mark no arguments text starts with.
      if (options.fields !== undefined) text = "\\u0001" + stringify({ args: parse(text), fields: options.fields });
    }
    return hostCall(name, text).then((answer) => {
      const outcome = parse(answer);
      if (outcome.ok) return outcome.value;
      throw new ApiError(name, outcome.error, line);
    });
  };
  const api = new Proxy(Object.freeze(Object.create(null)), {
    get(target, name) {
      if (typeof name !== "string" || name === "then") return undefined;
      return (args, options) => call(name, args, options);
    },
    set() { return false; },
    defineProperty() { return false; },
    deleteProperty() { return false; },
  });
  const format = (value) => {
    if (typeof value === "string") return value;
    try {
      const text = stringify(value);
      return text === undefined ? String(value) : text;
    } catch (error) {
      return String(value);
    }
  };
  const writer = (level) => (...values) => { hostLog(level, values.map(format).join(" ")); };
  const console = Object.freeze({
    log: writer("log"), info: writer("info"), warn: writer("warn"), error: writer("error"), debug: writer("debug"),
  });
  const fixed = (value) => ({ value, enumerable: false, writable: false, configurable: false });
  Object.defineProperty(global, "api", fixed(api));
  Object.defineProperty(global, "console", fixed(console));
  const describe = (error) => {
    const facts = { name: "Error", message: "" };
    if (error !== null && typeof error === "object") {
      facts.name = String(error.name || "Error");
      facts.message = String(error.message === undefined ? format(error) : error.message);
      const line = typeof error.line === "number" ? error.line : programLine(error.stack);
      if (line !== undefined) facts.line = line;
      for (const key of ["operation", "status", "category", "retryable", "apiMessage"]) {
        if (error[key] !== undefined) facts[key] = error[key];
      }
    } else {
      facts.message = format(error);
    }
    return stringify(facts);
  };
  const json = (value) => (value === undefined ? undefined : stringify(value));
  return Object.freeze({ describe: Object.freeze(describe), json: Object.freeze(json) });
})`;
