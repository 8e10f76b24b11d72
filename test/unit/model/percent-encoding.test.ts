/**
 * One cookie encoding: a cookie parameter (request/params.ts) and an API key in a cookie
 * (auth/credentials.ts) put the same value on the wire the same way. Before, a credential made
 * only of cookie-octets went out raw (`%` included) and any other one through encodeURIComponent
 * (`/` and `=` encoded too), while a parameter kept cookie-octets and encoded `%`.
 */
import { describe, expect, it } from "vitest";
import {
  encodeCookieName,
  encodeCookieValue,
  encodeUriComponentStrict,
} from "../../../src/model/percent-encoding.js";
import type { ParameterBindingNode } from "../../../src/model/types.js";
import { applyCredentials } from "../../../src/runtime/auth/credentials.js";
import { serializeCookieParameter } from "../../../src/runtime/request/params.js";

const COOKIE_VALUES: [given: string, want: string][] = [
  ["abc123", "abc123"],
  ["50%", "50%25"],
  ["abc%3D%3D--def", "abc%253D%253D--def"],
  ["a b", "a%20b"],
  ["a/b=c:d@e", "a/b=c:d@e"],
  ["tok.en-_~!#$&'()*+", "tok.en-_~!#$&'()*+"],
  ['say "hi"', "say%20%22hi%22"],
  ["a,b;c\\d", "a%2Cb%3Bc%5Cd"],
  ["café", "caf%C3%A9"],
  ["🍪", "%F0%9F%8D%AA"],
];

function cookieParameter(name: string): ParameterBindingNode {
  return {
    argument: name,
    name,
    in: "cookie",
    required: false,
    style: "form",
    explode: true,
    allowReserved: false,
    shape: "primitive",
  };
}

function cookieCredential(name: string, value: string): string[] {
  const schemes = { key: { type: "apiKey" as const, in: "cookie" as const, name } };
  return applyCredentials([{ key: [] }], schemes, new Map([["key", value]])).cookies;
}

describe("encodeCookieValue", () => {
  it.each(COOKIE_VALUES)("%j → %s, the same for a parameter and a credential", (given, want) => {
    expect(encodeCookieValue(given)).toBe(want);
    expect(serializeCookieParameter(cookieParameter("session"), given)).toBe(`session=${want}`);
    expect(cookieCredential("session", given)).toEqual([`session=${want}`]);
  });
});

describe("encodeCookieName", () => {
  it.each([
    ["session_id", "session_id"],
    ["X-Api-Key", "X-Api-Key"],
    ["a b=", "a%20b%3D"],
    ["50%", "50%25"],
  ])("%j → %s, the same for a parameter and a credential", (given, want) => {
    expect(encodeCookieName(given)).toBe(want);
    expect(serializeCookieParameter(cookieParameter(given), "v")).toBe(`${want}=v`);
    expect(cookieCredential(given, "v")).toEqual([`${want}=v`]);
  });
});

describe("encodeUriComponentStrict", () => {
  it.each([
    ["abc-._~", "abc-._~"],
    ["k!'()*ey", "k%21%27%28%29%2Aey"],
    ["a b/c?d&e=f#g", "a%20b%2Fc%3Fd%26e%3Df%23g"],
    ["50%", "50%25"],
    ["café", "caf%C3%A9"],
  ])("%j → %s, as encodeURIComponent with !'()* encoded too", (given, want) => {
    expect(encodeUriComponentStrict(given)).toBe(want);
    expect(encodeUriComponentStrict(given)).toBe(
      encodeURIComponent(given).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    );
  });
});
