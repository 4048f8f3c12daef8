/**
 * The part of `oidc-provider` (9.x, which ships no type declarations) the tests use: build a
 * provider for an issuer with a configuration, and get its Node request handler.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
