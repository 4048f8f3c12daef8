/**
 * A real OpenID provider for the single sign-on tests: the certified
 * `oidc-provider` package on 127.0.0.1, with its development login and
 * consent screens (any login name, any password) and accounts whose claims
 * the test sets. It sits behind a small forwarding front on the issuer's
 * address, which lets a test rotate the provider's signing keys (a new
 * provider instance with new keys behind the same issuer) and tamper with
 * token responses (wrong audience, expired or foreign-signed ID tokens)
 * to check that the relying party refuses them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, type JWK } from 'jose';
import Provider from 'oidc-provider';

export interface ProviderAccount {
  email?: string;
  email_verified?: boolean;
  groups?: string[];
  name?: string;
}

export const CLIENT_ID = 'enterprise-search';
export const CLIENT_SECRET = 'test-client-secret-0123456789abcdef';

/** Rewrites the ID token of a token response; `sign` signs claims with the provider's current key. */
export type IdTokenTamper = (
  claims: Record<string, unknown>,
  sign: (claims: Record<string, unknown>) => Promise<string>,
) => Promise<string>;

async function newKey(kid: string): Promise<{ jwk: JWK; privateKey: CryptoKey }> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return {
    jwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' },
    privateKey: privateKey as CryptoKey,
  };
}

export async function startOpenIdProvider() {
  const accounts = new Map<string, ProviderAccount>();
  let redirectUris: string[] = [];
  let key = await newKey('key-1');
  let generation = 1;
  let tamper: IdTokenTamper | undefined;
  let tokenRequests = 0;

  const front = http.createServer();
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;

  function build(): Provider {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          redirect_uris: redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      jwks: { keys: [key.jwk] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
      scopes: ['openid', 'email', 'profile', 'groups'],
      features: { devInteractions: { enabled: true } },
      pkce: { required: () => true },
      cookies: { keys: ['test-cookie-key-0123456789'] },
      findAccount: async (_ctx: unknown, id: string) => ({
        accountId: id,
        claims: async () => ({ sub: id, ...(accounts.get(id) ?? {}) }),
      }),
    });
    return provider;
  }
  let provider = build();

  front.on('request', (req, res) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    if (path !== '/token' || !tamper) return provider.callback()(req, res);
    tokenRequests++;
    // Capture the provider's token response, rewrite the ID token, send it on.
    const chunks: Buffer[] = [];
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    res.write = ((chunk: Buffer | string) => {
      chunks.push(Buffer.from(chunk));
      return true;
    }) as typeof res.write;
    res.end = ((chunk?: Buffer | string) => {
      if (chunk) chunks.push(Buffer.from(chunk));
      void rewrite(Buffer.concat(chunks).toString('utf8')).then((body) => {
        res.removeHeader('content-length');
        write(body);
        end();
      });
      return res;
    }) as typeof res.end;
    provider.callback()(req, res);
  });

  const sign = (claims: Record<string, unknown>) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: key.jwk.kid! }).sign(key.privateKey);

  async function rewrite(body: string): Promise<string> {
    const json = JSON.parse(body) as { id_token?: string };
    if (!json.id_token || !tamper) return body;
    json.id_token = await tamper(decodeJwt(json.id_token) as Record<string, unknown>, sign);
    return JSON.stringify(json);
  }

  return {
    issuer,
    /** Registers the relying party's callback (the provider is rebuilt with it). */
    setRedirectUri(uri: string) {
      redirectUris = [uri];
      provider = build();
    },
    setAccount(login: string, claims: ProviderAccount) {
      accounts.set(login, claims);
    },
    /** New signing keys behind the same issuer (the old key is no longer published). */
    async rotateKeys() {
      key = await newKey(`key-${++generation}`);
      provider = build();
    },
    setTamper(fn: IdTokenTamper | undefined) {
      tamper = fn;
    },
    tokenRequests: () => tokenRequests,
    /** A foreign key: tokens signed with it must be refused. */
    foreignSigner: async () => {
      const foreign = await newKey(key.jwk.kid!);
      return (claims: Record<string, unknown>) =>
        new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: foreign.jwk.kid! }).sign(foreign.privateKey);
    },
    close: () => new Promise<void>((resolve) => front.close(() => resolve())),
  };
}

export type OpenIdProvider = Awaited<ReturnType<typeof startOpenIdProvider>>;
