/**
 * The deployment recipes stay true to the bridge: every `OPENAPI_MCP_*` variable the compose
 * files set is one the option table reads (a renamed option would otherwise be ignored in
 * silence), each variable the team recipe's auth config reads is set by its compose file, and
 * that auth config is one the bridge accepts: a per-user login with its secrets from the
 * environment. No Docker engine runs here; the Dockerfile's own steps are tested in
 * test/e2e/dockerfile.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseAuthConfig } from "../../../src/runtime/auth/auth-config.js";
import { OPTION_TABLE } from "../../../src/runtime/config/option-table.js";

const DEPLOY = join(import.meta.dirname, "../../../deploy");

function environmentOf(file: string): Record<string, string> {
  const compose = parse(readFileSync(join(DEPLOY, file), "utf8")) as {
    services: Record<string, { environment?: Record<string, string> }>;
  };
  return compose.services["bridge"]?.environment ?? {};
}

/** Every variable an option reads, a `<SCHEME>` pattern as a prefix. */
const OPTION_VARIABLES = Object.values(OPTION_TABLE).flatMap((spec) =>
  "env" in spec && typeof spec.env === "string" ? [spec.env.split(" ")[0]!] : [],
);

function isOptionVariable(name: string): boolean {
  return OPTION_VARIABLES.some((known) =>
    known.includes("<") ? name.startsWith(known.slice(0, known.indexOf("<"))) : known === name,
  );
}

describe.each([["compose.yaml"], ["compose.team.yaml"]])("deploy/%s", (file) => {
  it("sets only variables the bridge reads as options", () => {
    const names = Object.keys(environmentOf(file)).filter((name) => name.startsWith("OPENAPI_MCP_"));
    expect(names.length).toBeGreaterThan(3);
    expect(names.filter((name) => !isOptionVariable(name))).toEqual([]);
  });
});

describe("the team recipe", () => {
  it("gives its auth config every variable it reads, and the bridge takes it as a per-user login", () => {
    const env = environmentOf("compose.team.yaml");
    const raw = parse(readFileSync(join(DEPLOY, "auth.team.yaml"), "utf8")) as unknown;
    const read =
      JSON.stringify(raw)
        .match(/"env":"([A-Z_]+)"/g)
        ?.map((m) => m.slice(7, -1)) ?? [];
    expect(read.length).toBeGreaterThan(0);
    expect(read.filter((name) => !(name in env))).toEqual([]);
    const config = parseAuthConfig(raw, Object.fromEntries(read.map((name) => [name, `value of ${name}`])));
    expect(Object.values(config.oauth)).toEqual([
      expect.objectContaining({ flow: "authorizationCode", clientSecret: "value of API_CLIENT_SECRET" }),
    ]);
  });

  it("shares the login store and the keys every replica needs", () => {
    const env = environmentOf("compose.team.yaml");
    expect(env["OPENAPI_MCP_TOKEN_STORE"]).toMatch(/^redis:\/\//);
    for (const key of ["OPENAPI_MCP_TOKEN_STORE_KEY", "OPENAPI_MCP_CONFIRM_KEY", "OPENAPI_MCP_AUTH_ISSUER"]) {
      expect(env[key], key).toMatch(/^\$\{[A-Z_]+:\?/);
    }
  });
});
