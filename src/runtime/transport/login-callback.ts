/**
 * The page the API's authorization server sends the user's browser back to after a per-user
 * sign-in (auth/user-login/): the bridge trades the code for the user's tokens and says, in a
 * plain page with no script and no token, whether it worked. Served before the MCP guards and
 * the OAuth front door: the browser has no MCP token, and a top-level navigation sends no Origin.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { type LoginCallbacks, toSignOutPath } from "../auth/user-login/user-login.js";
import type { FrontDoor } from "./oauth/front-door.js";

/** Serves the callback when `pathname` is one; false when it is not (the request goes on). */
export async function serveLoginCallback(
  logins: LoginCallbacks | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  if (logins === undefined || req.method !== "GET" || !logins.paths().includes(url.pathname)) return false;
  const outcome = await logins.complete(url.pathname, url.searchParams);
  const [status, title, text] =
    outcome === undefined
      ? [400, "Sign-in failed", "This sign-in link is not one this bridge issued, or it was changed."]
      : outcome.ok
        ? [
            200,
            "Signed in",
            `You are signed in to ${outcome.scheme}. You can close this window and go back to your MCP client.`,
          ]
        : [400, "Sign-in failed", outcome.message];
  res
    .writeHead(status, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": "default-src 'none'",
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
    })
    .end(
      `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
        `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`,
    );
  return true;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * `POST <callback path>/sign-out` with the user's MCP access token: the bridge forgets (and,
 * where configured, revokes) that user's own API tokens; the answer names the schemes. Needs
 * the front door (who the user is); false when the path is not a sign-out path.
 */
export async function serveSignOut(
  logins: LoginCallbacks | undefined,
  frontDoor: FrontDoor | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  if (logins === undefined || frontDoor === undefined) return false;
  if (!logins.paths().some((path) => toSignOutPath(path) === url.pathname)) return false;
  if (req.method !== "POST") {
    res
      .writeHead(405, { allow: "POST", "content-type": "text/plain" })
      .end("POST with your access token to sign out");
    return true;
  }
  const token = await frontDoor.authenticate(req, res);
  if (token === undefined) return true;
  req.resume();
  const subject = frontDoor.callers.callerOf(token)?.subject;
  const signedOut = subject === undefined ? [] : await logins.signOut(subject);
  res
    .writeHead(200, { "content-type": "application/json", "cache-control": "no-store" })
    .end(JSON.stringify({ signedOut }));
  return true;
}
