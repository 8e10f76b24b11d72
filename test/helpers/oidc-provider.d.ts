/**
 * The little of oidc-provider (no types of its own) the tests' authorization server uses
 * (authorization-server.ts): construct it, mount its request listener.
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
