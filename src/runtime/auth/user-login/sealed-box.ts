/**
 * Authenticated encryption for what the per-user login keeps or hands out: the login state a
 * browser carries to the provider and back (it holds the PKCE verifier), and each user's tokens
 * in the store. AES-256-GCM with a key derived (HKDF-SHA256) from the operator's key for each
 * purpose, so a value sealed for one purpose never opens as another; the purpose is also the
 * associated data. A value that was altered, sealed under another key or for another purpose
 * does not open (undefined), it never throws.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** The shortest operator key accepted, in bytes (a shorter one is guessable offline). */
export const MIN_STORE_KEY_BYTES = 32;

const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SealedBox {
  seal(value: unknown, purpose: string): string;
  open(sealed: string, purpose: string): unknown;
}

export function createSealedBox(key: string | Uint8Array): SealedBox {
  const master = typeof key === "string" ? Buffer.from(key, "utf8") : Buffer.from(key);
  if (master.byteLength < MIN_STORE_KEY_BYTES)
    throw new RangeError(`the token store key must be at least ${MIN_STORE_KEY_BYTES} bytes`);
  const keys = new Map<string, Buffer>();
  const keyFor = (purpose: string): Buffer => {
    let derived = keys.get(purpose);
    if (derived === undefined) {
      derived = Buffer.from(hkdfSync("sha256", master, "openapi-mcp-bridge user login", purpose, 32));
      keys.set(purpose, derived);
    }
    return derived;
  };
  return {
    seal(value, purpose) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", keyFor(purpose), iv);
      cipher.setAAD(Buffer.from(purpose, "utf8"));
      const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
    },
    open(sealed, purpose) {
      const bytes = Buffer.from(sealed, "base64url");
      if (bytes.byteLength <= IV_BYTES + TAG_BYTES) return undefined;
      try {
        const decipher = createDecipheriv("aes-256-gcm", keyFor(purpose), bytes.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(purpose, "utf8"));
        decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        const text = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
        return JSON.parse(text.toString("utf8")) as unknown;
      } catch {
        return undefined;
      }
    },
  };
}
