/**
 * The front door's own HTTP reads (an issuer's metadata, its JWKS, an introspection): JSON
 * only, within a time limit and a byte cap, no redirects (an issuer's documents live where its
 * metadata says). A misbehaving or hostile issuer endpoint can slow one request down, never
 * exhaust the bridge's memory.
 */

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

export class IssuerFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IssuerFetchError";
  }
}

/** GETs (or POSTs `form` to) `url` and parses its JSON object; throws IssuerFetchError. */
export async function fetchJson(
  url: string,
  limits: FetchLimits,
  request: { form?: URLSearchParams; authorization?: string } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (request.authorization !== undefined) headers.authorization = request.authorization;
  if (request.form !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.form !== undefined ? "POST" : "GET",
      headers,
      ...(request.form !== undefined ? { body: request.form.toString() } : {}),
      redirect: "error",
      signal: AbortSignal.timeout(limits.timeoutMs),
    });
  } catch (error) {
    throw new IssuerFetchError(`${url} could not be read: ${describeFailure(error)}`);
  }
  const text = await readCapped(response, limits.maxBytes, url);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new IssuerFetchError(`${url} answered ${response.status} with something other than JSON`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new IssuerFetchError(`${url} answered ${response.status} with JSON that is not an object`);
  }
  return { status: response.status, body: body as Record<string, unknown> };
}

async function readCapped(response: Response, maxBytes: number, url: string): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new IssuerFetchError(`${url} answered more than ${maxBytes} bytes`);
  }
  if (response.body === null) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new IssuerFetchError(`${url} answered more than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function describeFailure(error: unknown): string {
  const name = (error as { name?: unknown }).name;
  if (name === "TimeoutError") return "no answer in time";
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === "string") return cause.code;
  return error instanceof Error ? error.message : String(error);
}
