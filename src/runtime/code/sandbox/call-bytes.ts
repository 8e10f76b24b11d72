/**
 * The byte budget of what crosses between a program and the API: one call's arguments and one
 * answer at most `maxCallBytes`, all the answers of one program at most `maxAnswerBytes`. A
 * call over it is refused with an answer the program sees as a failed call (an ApiError of
 * category program_limit), not by stopping the program: it can ask for less and go on.
 *
 * The arguments are measured where measuring is cheap: the worker (engine.ts) counts their
 * UTF-8 bytes before sending; the main thread (pool.ts) checks the length of the text it got
 * before anything parses it (a UTF-16 length never exceeds the UTF-8 bytes, so a text longer
 * than the cap is over it for sure).
 */
import { formatBytes } from "../../../model/format-bytes.js";
import { SANDBOX_LIMIT_FLAGS, type SandboxLimits } from "./limits.js";

/** A failed call's answer, as the prelude reads it (api-outcome.ts's ApiOutcome, as JSON). */
function refusal(message: string): string {
  return JSON.stringify({ ok: false, error: { message, category: "program_limit", retryable: false } });
}

/** The refusal of a call whose arguments are `bytes` long, or undefined when they fit. */
export function refuseCallBytes(
  name: string,
  bytes: number,
  limits: Pick<SandboxLimits, "maxCallBytes">,
): string | undefined {
  if (bytes <= limits.maxCallBytes) return undefined;
  return refusal(
    `api.${name} was not called: its arguments are ${formatBytes(bytes)} of JSON, more than the ${formatBytes(limits.maxCallBytes)} one call may carry (--${SANDBOX_LIMIT_FLAGS.maxCallBytes}). Pass less per call.`,
  );
}

/**
 * How much of the next answer a program may still be handed (`used`: bytes of answers handed
 * before), and what it is told when the API's answer is larger: the bridge stops reading there
 * (call-pipeline.ts), so an oversized answer never costs more than the budget to receive.
 */
export function limitAnswer(
  name: string,
  used: number,
  limits: Pick<SandboxLimits, "maxCallBytes" | "maxAnswerBytes">,
): { bytes: number; message: string } {
  const room = Math.max(0, limits.maxAnswerBytes - used);
  if (limits.maxCallBytes <= room) {
    return {
      bytes: limits.maxCallBytes,
      message: `api.${name}'s answer is more than the ${formatBytes(limits.maxCallBytes)} one call may hand a program (--${SANDBOX_LIMIT_FLAGS.maxCallBytes}); the call was made, the rest of its answer was not read. Ask for less: filter, page or pick fields.`,
    };
  }
  return {
    bytes: room,
    message: `api.${name}'s answer would take the program past the ${formatBytes(limits.maxAnswerBytes)} of answers one execute may be handed (--${SANDBOX_LIMIT_FLAGS.maxAnswerBytes}); ${formatBytes(used)} were handed before. The call was made, the rest of its answer was not read. Ask for less, or split the work over several executes.`,
  };
}

/**
 * The answer to hand the program, or its refusal when it is over the per-call cap or would
 * take the program past its answer budget (`used`: bytes of answers it was handed before).
 */
export function fitAnswer(
  name: string,
  answer: string,
  used: number,
  limits: Pick<SandboxLimits, "maxCallBytes" | "maxAnswerBytes">,
): { answer: string; bytes: number } {
  const bytes = Buffer.byteLength(answer, "utf8");
  if (bytes > limits.maxCallBytes) {
    return {
      answer: refusal(
        `api.${name}'s answer is ${formatBytes(bytes)}, more than the ${formatBytes(limits.maxCallBytes)} one call may hand a program (--${SANDBOX_LIMIT_FLAGS.maxCallBytes}); the call was made, its answer is withheld. Ask for less: filter, page or pick fields.`,
      ),
      bytes: 0,
    };
  }
  if (used + bytes > limits.maxAnswerBytes) {
    return {
      answer: refusal(
        `api.${name}'s answer (${formatBytes(bytes)}) would take the program past the ${formatBytes(limits.maxAnswerBytes)} of answers one execute may be handed (--${SANDBOX_LIMIT_FLAGS.maxAnswerBytes}); ${formatBytes(used)} were handed before. The call was made, its answer is withheld. Ask for less, or split the work over several executes.`,
      ),
      bytes: 0,
    };
  }
  return { answer, bytes };
}
