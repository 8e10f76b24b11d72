/** Types of bench/spec-judge.mjs (for the lifecycle e2e test). */
export interface JudgedOperation {
  operationId: string | null;
  method: string;
  path: string;
}

export interface BrokenOperation extends JudgedOperation {
  kind:
    | "operation removed"
    | "parameter removed"
    | "parameter made required"
    | "new required parameter"
    | "enum value removed";
  detail: string;
}

export interface Judgement {
  broken: BrokenOperation[];
  proseOnly: JudgedOperation[];
  operations: { old: number; new: number };
}

export interface JudgedChange {
  operationId: string | null;
  method: string;
  path: string;
  severity: string;
}

export function judgeSpecPair(oldDoc: unknown, newDoc: unknown): Judgement;

export function checkDiffAgainstJudge(
  judgement: Judgement,
  changes: JudgedChange[],
): { missed: BrokenOperation[]; falseAlarms: (JudgedOperation & { changes: JudgedChange[] })[] };
