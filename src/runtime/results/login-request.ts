/**
 * The answer to a call that needs the user to sign in to the API first (per-user login,
 * auth/user-login/): nothing was sent. The transport turns it into what the client can show
 * the user (a URL elicitation, server/login-prompt.ts); a client that cannot gets this text,
 * which asks the model to hand the link to the user. The link is not a credential: it is good
 * for one sign-in of this user, for 10 minutes.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { LoginRequired } from "../auth/user-login/user-login.js";
import { ERROR_META_KEY, toErrorResult } from "./error-result.js";

/** The facts of a login_required result, for the transport (and clients that read facts). */
export interface LoginFacts {
  scheme: string;
  loginUrl: string;
  elicitationId: string;
}

export function toLoginRequest(tool: string, login: LoginRequired): CallToolResult {
  const result = toErrorResult(
    `Sign-in needed: ${tool} acts on the API as the user, and ${login.reason}. Nothing was sent to the API. ` +
      `Ask the user to open this link and sign in, then call ${tool} again: ${login.url}`,
    "login_required",
  );
  const facts = result._meta?.[ERROR_META_KEY] as Record<string, unknown>;
  const login_: LoginFacts = {
    scheme: login.scheme,
    loginUrl: login.url,
    elicitationId: login.elicitationId,
  };
  facts.login = login_;
  return result;
}

/** The login facts of a result, when it asks for a sign-in. */
export function readLoginFacts(result: CallToolResult): LoginFacts | undefined {
  const facts = result._meta?.[ERROR_META_KEY] as { category?: unknown; login?: LoginFacts } | undefined;
  return facts?.category === "login_required" ? facts.login : undefined;
}
