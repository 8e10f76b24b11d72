/**
 * How a call that needs the user's sign-in to the API (results/login-request.ts) reaches a
 * client that can show a link to its user without the model in between: on 2025-era
 * connections the `-32042` URL-elicitation-required error (the client opens the link, the user
 * signs in, the client calls again), on 2026-07-28 an input-required result with a URL-mode
 * elicitation (the client's retry runs the call, now with the user's token). A client that
 * declared neither gets the result itself, whose text hands the link to the user through the
 * model.
 */
import {
  type ClientCapabilities,
  type InputRequiredResult,
  inputRequired,
  UrlElicitationRequiredError,
} from "@modelcontextprotocol/server";
import type { LoginFacts } from "../results/login-request.js";

/** The key of the sign-in in `inputRequests` (2026-07-28). */
const LOGIN_INPUT = "signIn";

function messageOf(login: LoginFacts): string {
  return `Sign in to ${login.scheme} so the bridge can call the API as you. Open the link, sign in, then come back.`;
}

/** Whether a client's capabilities say it can open a URL for its user. */
export function canOpenUrl(capabilities: ClientCapabilities | undefined): boolean {
  return capabilities?.elicitation?.url !== undefined;
}

/** The 2025-era answer: thrown, the SDK sends it as the -32042 error. */
export function toUrlElicitationError(login: LoginFacts): UrlElicitationRequiredError {
  return new UrlElicitationRequiredError(
    [{ mode: "url", url: login.loginUrl, elicitationId: login.elicitationId, message: messageOf(login) }],
    `Sign-in to ${login.scheme} needed`,
  );
}

/** The 2026-07-28 answer: the client opens the link and retries. */
export function toLoginInputRequest(login: LoginFacts): InputRequiredResult {
  return inputRequired({
    inputRequests: {
      [LOGIN_INPUT]: inputRequired.elicitUrl({ url: login.loginUrl, message: messageOf(login) }),
    },
  });
}
