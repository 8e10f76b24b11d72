/**
 * Confirmation of a destructive call on the 2026-07-28 wire, which has no server-to-client
 * requests: the first round of the tools/call answers with an input-required result carrying the
 * question (an elicitation form) and a signed state (confirm-state.ts); the client asks the user
 * and calls again with the answer (`inputResponses`) and the state; that round runs the call if
 * the state is good for this very call and the user ticked the box. The form is the one 2025-era
 * connections get through elicitation/create.
 */
import {
  type ElicitRequestFormParams,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
} from "@modelcontextprotocol/server";
import { ConfirmationInvalid, ConfirmationPending } from "../access/confirm.js";
import {
  CONFIRM_STATE_TTL_SECONDS,
  type ConfirmStates,
  digestArguments,
  digestSubject,
  type VerifiedState,
} from "./confirm-state.js";

/** The key of the question in `inputRequests`, and of its answer in `inputResponses`. */
const CONFIRM_INPUT = "confirm";

/** The question as a form: one box to tick, unticked unless the user ticks it. */
export function toConfirmationForm(message: string): ElicitRequestFormParams {
  return {
    mode: "form",
    message,
    requestedSchema: {
      type: "object",
      properties: {
        confirm: { type: "boolean", title: "Allow this call", description: message, default: false },
      },
      required: ["confirm"],
    },
  };
}

export interface ConfirmRoundInput {
  states: ConfirmStates;
  /** The tool called and its arguments, as the client sent them (what the state binds). */
  tool: string;
  args: unknown;
  /** The caller's subject when the OAuth front door verified one (the state binds it). */
  subject?: string | undefined;
  /** The echoed state as the verify hook left it; undefined on a first round. */
  state: VerifiedState | undefined;
  /** The answers the client sent with its retry (untrusted). */
  responses: Record<string, unknown> | undefined;
}

export interface ConfirmRound {
  /** The confirm hook of this round (engine/bridge-options.ts: CallContext.confirm). */
  confirm(message: string): Promise<boolean>;
  /** The question, when this round asked one (the call is then answered with it). */
  asked(): string | undefined;
}

/** One round of a tools/call on the 2026-07-28 wire: asks, or reads the answer the retry brought. */
export function startConfirmRound(input: ConfirmRoundInput): ConfirmRound {
  const { states, tool, args, state, subject } = input;
  let question: string | undefined;
  return {
    asked: () => question,
    async confirm(message) {
      if (state === undefined) {
        question = message;
        throw new ConfirmationPending();
      }
      if ("refused" in state) throw new ConfirmationInvalid(REFUSALS[state.refused]);
      const { payload } = state;
      if (payload.tool !== tool || payload.args !== digestArguments(args)) {
        throw new ConfirmationInvalid(
          "the confirmation sent back was asked for another call (another tool or other arguments); " +
            "call the tool again, unchanged, so the user is asked about this one",
        );
      }
      // A state asked of one signed-in user confirms nothing for another (or for no one).
      if (payload.who !== (subject === undefined ? undefined : digestSubject(subject))) {
        throw new ConfirmationInvalid(
          "the confirmation sent back was asked of another user; call the tool again so this user is asked",
        );
      }
      const answer = inputResponse(input.responses, CONFIRM_INPUT);
      // A retry without an answer (or with one the SDK could not read) was not the user saying no.
      if (answer.kind !== "elicit") {
        question = message;
        throw new ConfirmationPending();
      }
      if (!(answer.action === "accept" && answer.content?.["confirm"] === true)) return false;
      let first: boolean;
      try {
        first = await states.spend(payload);
      } catch (error) {
        throw new ConfirmationInvalid(
          `the bridge could not check that this confirmation is unused (${(error as Error).message}), so the ` +
            "call was not run; call the tool again",
        );
      }
      if (!first) {
        throw new ConfirmationInvalid(
          "this confirmation was already used for a call; each answer allows one call, so call the tool " +
            "again if the user wants it run again",
        );
      }
      return true;
    },
  };
}

/** What each refused state tells the model. */
const REFUSALS = {
  altered:
    "the confirmation state sent back is not the one the bridge issued (its signature does not match: it " +
    "was changed, or another replica with another --confirm-key issued it)",
  expired: `the confirmation was answered more than ${CONFIRM_STATE_TTL_SECONDS / 60} minutes after it was asked; call the tool again so the user is asked again`,
  malformed: "the confirmation state sent back is not one the bridge issues",
} as const;

/** The answer to a round that asked: the question, and the state the retry must bring back. */
export async function toConfirmationRequest(
  states: ConfirmStates,
  tool: string,
  args: unknown,
  question: string,
  subject?: string,
): Promise<InputRequiredResult> {
  return inputRequired({
    inputRequests: { [CONFIRM_INPUT]: inputRequired.elicit(toConfirmationForm(question)) },
    requestState: await states.mint(tool, args, subject),
  });
}
