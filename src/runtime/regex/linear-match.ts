/**
 * A linear-time regular expression matcher (Thompson's construction, simulated breadth-first
 * like RE2): the time to test a string is at most its length times the program's size, never
 * exponential, whatever the pattern. Only `test` is needed (JSON Schema's `pattern` is a yes/no
 * question), so there are no captures and greedy and lazy quantifiers are the same.
 *
 * Every step is counted against a budget shared by all the tests of one validation (see
 * bounded-regexp.ts): even a linear cost can be large for a 4 MB argument and a program of
 * thousands of states, and the event loop must stay free.
 */
import type { PatternNode } from "./parse-pattern.js";

/** Thrown when a test would take more steps than the budget has left. */
export class MatchBudgetError extends Error {
  constructor() {
    super("the regular expression would take too long on this value");
    this.name = "MatchBudgetError";
  }
}

/** Steps left for the tests of the current validation; reset by the caller. */
export const matchBudget = { left: Number.POSITIVE_INFINITY };

/** Programs larger than this are not built (a `{1,100000}` repetition, say): the caller falls back. */
export const MAX_PROGRAM_SIZE = 20_000;

const CHAR = 0;
const SPLIT = 1;
const ASSERT = 2;
const LOOK = 3;
const MATCH = 4;

type Instruction =
  | { op: typeof CHAR; test: (point: number) => boolean; next: number }
  | { op: typeof SPLIT; x: number; y: number }
  | { op: typeof ASSERT; kind: "start" | "end" | "word" | "notWord"; next: number }
  | { op: typeof LOOK; negate: boolean; program: Program; next: number }
  | { op: typeof MATCH };

interface Program {
  code: Instruction[];
  start: number;
}

export interface LinearMatcher {
  test(input: string): boolean;
}

/** The matcher of a parsed pattern, or undefined when its program would be too large. */
export function compileLinear(node: PatternNode, flags: string): LinearMatcher | undefined {
  const builder = new Builder(flags);
  let program: Program;
  try {
    program = builder.program(node);
  } catch (error) {
    if (error instanceof TooLarge) return undefined;
    throw error;
  }
  const anchored = startsAnchored(node);
  const isWord = wordTest(flags);
  return {
    test: (input) => run(program, input, 0, anchored, isWord, false),
  };
}

class TooLarge extends Error {}

class Builder {
  private size = 0;
  private readonly atoms = new Map<string, (point: number) => boolean>();
  constructor(private readonly flags: string) {}

  program(node: PatternNode): Program {
    const code: Instruction[] = [{ op: MATCH }];
    const start = this.emit(code, node, 0);
    return { code, start };
  }

  private push(code: Instruction[], instruction: Instruction): number {
    this.size++;
    if (this.size > MAX_PROGRAM_SIZE) throw new TooLarge();
    code.push(instruction);
    return code.length - 1;
  }

  /** Emits `node` followed by `next`; returns its first instruction (continuation style). */
  private emit(code: Instruction[], node: PatternNode, next: number): number {
    switch (node.type) {
      case "empty":
        return next;
      case "atom":
        return this.push(code, { op: CHAR, test: this.atomTest(node), next });
      case "seq": {
        let at = next;
        for (let i = node.items.length - 1; i >= 0; i--) at = this.emit(code, node.items[i]!, at);
        return at;
      }
      case "alt": {
        let at = this.emit(code, node.options.at(-1)!, next);
        for (let i = node.options.length - 2; i >= 0; i--) {
          at = this.push(code, { op: SPLIT, x: this.emit(code, node.options[i]!, next), y: at });
        }
        return at;
      }
      case "assert":
        return this.push(code, { op: ASSERT, kind: node.kind, next });
      case "look": {
        const program = this.program(node.node);
        return this.push(code, { op: LOOK, negate: node.negate, program, next });
      }
      case "repeat":
        return this.emitRepeat(code, node, next);
    }
  }

  private emitRepeat(
    code: Instruction[],
    node: Extract<PatternNode, { type: "repeat" }>,
    next: number,
  ): number {
    let at = next;
    if (node.max === Number.POSITIVE_INFINITY) {
      // A loop: SPLIT(body → back to the SPLIT, next).
      const split: Instruction = { op: SPLIT, x: -1, y: next };
      const index = this.push(code, split);
      split.x = this.emit(code, node.node, index);
      at = index;
    } else {
      // Each optional copy may read the part once more, or leave the repetition.
      for (let i = node.min; i < node.max; i++) {
        at = this.push(code, { op: SPLIT, x: this.emit(code, node.node, at), y: next });
      }
    }
    for (let i = 0; i < node.min; i++) at = this.emit(code, node.node, at);
    return at;
  }

  /** One character's test: a literal compared, anything else the native engine on one code point. */
  private atomTest(node: Extract<PatternNode, { type: "atom" }>): (point: number) => boolean {
    if (node.literal !== undefined && !this.flags.includes("i")) {
      const literal = node.literal;
      return (point) => point === literal;
    }
    const known = this.atoms.get(node.source);
    if (known) return known;
    const regex = new RegExp(
      `^(?:${node.source})$`,
      this.flags.includes("u") ? this.flags : `${this.flags}u`,
    );
    // ASCII answers are cached: most inputs are ASCII, and a native call per character costs.
    const ascii = new Int8Array(128);
    const test = (point: number): boolean => {
      if (point < 128) {
        const cached = ascii[point]!;
        if (cached !== 0) return cached > 0;
        const answer = regex.test(String.fromCharCode(point));
        ascii[point] = answer ? 1 : -1;
        return answer;
      }
      return regex.test(String.fromCodePoint(point));
    };
    this.atoms.set(node.source, test);
    return test;
  }
}

/** True when every match must start at position 0 (`^` first in every alternative). */
export function startsAnchored(node: PatternNode): boolean {
  if (node.type === "assert") return node.kind === "start";
  if (node.type === "seq") return node.items.length > 0 && startsAnchored(node.items[0]!);
  if (node.type === "alt") return node.options.every(startsAnchored);
  return false;
}

function wordTest(flags: string): (point: number) => boolean {
  const regex = new RegExp("^\\w$", flags.includes("i") ? "iu" : "u");
  return (point) => point >= 0 && regex.test(String.fromCodePoint(point));
}

/** The code point at `pos` (-1 past the end). */
function pointAt(input: string, pos: number): number {
  return pos >= input.length ? -1 : input.codePointAt(pos)!;
}

function pointBefore(input: string, pos: number): number {
  if (pos <= 0) return -1;
  const low = input.charCodeAt(pos - 1);
  if (low >= 0xdc00 && low <= 0xdfff && pos >= 2) {
    const high = input.charCodeAt(pos - 2);
    if (high >= 0xd800 && high <= 0xdbff) return input.codePointAt(pos - 2)!;
  }
  return low;
}

/**
 * Breadth-first simulation from `from`: true when the program matches a substring starting at
 * some position (or, with `anchoredHere`, starting at `from` only: a lookahead).
 */
function run(
  program: Program,
  input: string,
  from: number,
  anchored: boolean,
  isWord: (point: number) => boolean,
  anchoredHere: boolean,
): boolean {
  const { code } = program;
  matchBudget.left -= code.length;
  const marks = new Int32Array(code.length).fill(-1);
  let current: number[] = [];
  let next: number[] = [];
  const stack: number[] = [];
  let generation = 0;
  let matched = false;
  const restart = !anchored && !anchoredHere;

  /** Adds `state` and every state reachable from it without reading, at `pos`. */
  const add = (list: number[], state: number, pos: number) => {
    stack.push(state);
    let steps = 0;
    while (stack.length > 0) {
      const s = stack.pop()!;
      if (marks[s] === generation) continue;
      marks[s] = generation;
      steps++;
      const instruction = code[s]!;
      switch (instruction.op) {
        case CHAR:
          list.push(s);
          break;
        case SPLIT:
          stack.push(instruction.y, instruction.x);
          break;
        case ASSERT:
          if (holds(instruction.kind, input, pos, isWord)) stack.push(instruction.next);
          break;
        case LOOK: {
          const found = run(instruction.program, input, pos, false, isWord, true);
          if (found !== instruction.negate) stack.push(instruction.next);
          break;
        }
        case MATCH:
          matched = true;
          break;
      }
    }
    matchBudget.left -= steps;
    if (matchBudget.left < 0) throw new MatchBudgetError();
  };

  add(current, program.start, from);
  let pos = from;
  const length = input.length;
  while (!matched && pos < length) {
    const unit = input.charCodeAt(pos);
    const point = unit >= 0xd800 && unit <= 0xdbff ? input.codePointAt(pos)! : unit;
    const after = pos + (point > 0xffff ? 2 : 1);
    generation++;
    next.length = 0;
    const count = current.length;
    matchBudget.left -= count;
    for (let k = 0; k < count; k++) {
      const instruction = code[current[k]!] as Extract<Instruction, { op: typeof CHAR }>;
      if (!instruction.test(point)) continue;
      const target = instruction.next;
      const follow = code[target]!;
      // The usual case, a character followed by a character: no closure to compute.
      if (follow.op === CHAR) {
        if (marks[target] !== generation) {
          marks[target] = generation;
          next.push(target);
        }
      } else {
        add(next, target, after);
        if (matched) return true;
      }
    }
    if (restart) add(next, program.start, after);
    const swap = current;
    current = next;
    next = swap;
    pos = after;
    if (current.length === 0 && !restart) break;
  }
  if (matchBudget.left < 0) throw new MatchBudgetError();
  return matched;
}

function holds(
  kind: "start" | "end" | "word" | "notWord",
  input: string,
  pos: number,
  isWord: (point: number) => boolean,
): boolean {
  if (kind === "start") return pos === 0;
  if (kind === "end") return pos === input.length;
  const boundary = isWord(pointBefore(input, pos)) !== isWord(pointAt(input, pos));
  return kind === "word" ? boundary : !boundary;
}
