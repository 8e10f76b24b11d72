/**
 * The credentials part of the settings: the `--auth-config` file (JSON or YAML) and the
 * `--oauth-client SCHEME=ID` flags, whose secrets come from the environment, as one AuthConfig.
 * `--auth` and `--pass-through-header` are laid over it by toBridgeOptions.
 */
import { failWith } from "../../model/diagnostics.js";
import { type AuthConfig, AuthConfigError, parseAuthConfig } from "../auth/auth-config.js";
import { toClientEnvNames } from "../auth/credentials.js";
import { readConfigFile } from "./data-file.js";
import type { Settings } from "./option-table.js";
import type { Environment } from "./read-settings.js";

/** The code of an auth config file or OAuth2 client that cannot be used. */
export const AUTH_CONFIG_INVALID = "OMB_AUTH_CONFIG";

export async function readAuthSettings(settings: Settings, env: Environment): Promise<AuthConfig> {
  let config: AuthConfig = { auth: {}, oauth: {}, passThroughHeaders: {} };
  const file = settings.authConfig;
  if (file !== undefined) {
    const value = await readConfigFile(file, AUTH_CONFIG_INVALID, "auth config");
    try {
      config = parseAuthConfig(value, env);
    } catch (error) {
      if (error instanceof AuthConfigError) failWith(AUTH_CONFIG_INVALID, error.message, { file });
      throw error;
    }
  }
  for (const [scheme, clientId] of Object.entries(settings.oauthClient ?? {})) {
    const variable = toClientEnvNames(scheme).secret;
    const clientSecret = env[variable];
    if (!clientSecret) {
      failWith(AUTH_CONFIG_INVALID, `--oauth-client ${scheme}: set the client secret in ${variable}`);
    }
    config.oauth[scheme] = { ...config.oauth[scheme], clientId, clientSecret };
  }
  return config;
}
