/**
 * Single sign-on with OpenID Connect (domain, no HTTP): the authorization
 * code flow with PKCE, through openid-client (a certified relying-party
 * library), ending in a browser session like any other sign-in.
 *
 * `start` discovers the provider (once, then cached), makes a PKCE verifier,
 * a `state` and a `nonce`, remembers them for PENDING_TTL_MS under the state,
 * and answers the provider's authorization URL. `finish` takes the callback
 * URL and the state the browser carried in its cookie: the state must be
 * pending (each is used once: a replay is refused), the code is exchanged
 * with the verifier, and openid-client checks the ID token: its signature
 * against the provider's JWKS (also for tokens from the token endpoint, which
 * openid-client otherwise trusts by TLS alone; the key set is fetched again
 * for an unknown key id, so key rotation works), issuer, audience, expiry
 * with 30 s clock tolerance, and nonce. Then the
 * email must be present and verified and, when domains are configured, in one
 * of them. The verified email is the identity (spec, Authentication 5): the
 * account with that email is used, or created on first sign-in. When group
 * lists are configured, the groups claim decides the administrator and
 * developer roles at every sign-in.
 *
 * Failures are SsoError with a code the pages translate; provider details go
 * to the log, not to the browser.
 */
import * as client from 'openid-client';
import { findAccount, normalizeEmail } from '../accounts/accounts.ts';
import { emailProblem } from '../accounts/email.ts';
import { newId } from '../accounts/secrets.ts';
import { accountsPart, commitAccounts, type AccountRecord } from '../accounts/state.ts';
import type { Role } from '../accounts/principal.ts';
import type { OidcConfig } from '../config.ts';
import type { Logger } from '../log.ts';
import { createSession, type SessionDeps, type SessionView, type SignInContext } from './sessions.ts';

export type SsoErrorCode =
  | 'state_invalid'
  | 'provider_error'
  | 'provider_unreachable'
  | 'token_invalid'
  | 'email_missing'
  | 'email_unverified'
  | 'domain_not_allowed';

export class SsoError extends Error {
  override name = 'SsoError';
  constructor(
    readonly code: SsoErrorCode,
    message: string,
    /** The email the provider sent, when the refusal is about it (audit log). */
    readonly email?: string,
  ) {
    super(message);
  }
}

export const PENDING_TTL_MS = 10 * 60_000;
const MAX_PENDING = 10_000;

interface Pending {
  verifier: string;
  nonce: string;
  redirectUri: string;
  next: string;
  expires: number;
}

export interface OidcDeps extends SessionDeps {
  log: Logger;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

const pick = (o: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => Object.hasOwn(o, k)).map((k) => [k, o[k]]));

export class OidcSignIn {
  private discovered: Promise<client.Configuration> | undefined;
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly settings: OidcConfig,
    private readonly deps: OidcDeps,
  ) {}

  get label(): string {
    return this.settings.label;
  }

  private configuration(): Promise<client.Configuration> {
    if (!this.discovered) {
      const issuer = new URL(this.settings.issuer);
      const auth = this.settings.clientSecret ? client.ClientSecretBasic(this.settings.clientSecret) : client.None();
      // Plain http only for a provider on this machine (tests, development); https everywhere else.
      const execute = [client.enableNonRepudiationChecks];
      if (issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname)) execute.push(client.allowInsecureRequests);
      this.discovered = client
        .discovery(issuer, this.settings.clientId, { [client.clockTolerance]: 30 }, auth, { execute, timeout: 10 })
        .catch((err: unknown) => {
          this.discovered = undefined;
          this.deps.log.warn('OpenID provider discovery failed', { issuer: this.settings.issuer, error: String(err) });
          throw new SsoError('provider_unreachable', 'The sign-in provider cannot be reached');
        });
    }
    return this.discovered;
  }

  /** The provider URL to send the browser to, and the state to keep in the browser's cookie. */
  async start(redirectUri: string, next: string): Promise<{ url: string; state: string }> {
    const config = await this.configuration();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    this.prune();
    this.pending.set(state, { verifier, nonce, redirectUri, next, expires: this.deps.now() + PENDING_TTL_MS });
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: this.settings.scopes,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state };
  }

  /** Completes the sign-in from the callback URL; `cookieState` is the state the browser kept. */
  async finish(
    callback: URL,
    cookieState: string | undefined,
    ctx: Omit<SignInContext, 'method'>,
  ): Promise<{ token: string; session: SessionView; next: string; email: string }> {
    const state = callback.searchParams.get('state') ?? '';
    const pending = this.pending.get(state);
    this.pending.delete(state);
    if (!pending || cookieState !== state || pending.expires <= this.deps.now()) {
      throw new SsoError('state_invalid', 'The sign-in was not started here, took too long, or was already used');
    }
    const providerError = callback.searchParams.get('error');
    if (providerError !== null) {
      this.deps.log.info('OpenID provider refused the sign-in', { error: providerError.slice(0, 200) });
      throw new SsoError('provider_error', 'The sign-in provider refused the sign-in');
    }
    const claims = await this.verifiedClaims(callback, state, pending);
    const email = this.allowedEmail(claims);
    const account = await this.accountFor(email, this.rolesFrom(claims));
    const signedIn = await createSession(this.deps, account, { ...ctx, method: 'oidc' });
    return { ...signedIn, next: pending.next, email };
  }

  private async verifiedClaims(callback: URL, state: string, pending: Pending): Promise<Record<string, unknown>> {
    const config = await this.configuration();
    // The provider redirected to this URL; its origin and path are the registered redirect URI.
    const current = new URL(pending.redirectUri);
    current.search = callback.search;
    try {
      const tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: pending.verifier,
        expectedState: state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('no ID token');
      if (typeof claims.email === 'string' || !tokens.access_token) return claims as Record<string, unknown>;
      // Providers that follow OpenID Connect Core 5.4 give scope claims (email, groups) at the userinfo
      // endpoint rather than in the ID token; its subject must be the ID token's.
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      return { ...info, ...claims, ...pick(info, ['email', 'email_verified', this.settings.groupsClaim]) };
    } catch (err) {
      this.deps.log.warn('OpenID sign-in failed', { error: String(err), code: (err as { code?: string }).code });
      throw new SsoError('token_invalid', 'The sign-in provider answered with a token that cannot be trusted');
    }
  }

  private allowedEmail(claims: Record<string, unknown>): string {
    if (typeof claims.email !== 'string' || emailProblem(normalizeEmail(claims.email)) !== undefined) {
      throw new SsoError('email_missing', 'The sign-in provider did not send an email address');
    }
    if (claims.email_verified !== true) {
      throw new SsoError('email_unverified', 'The sign-in provider has not verified this email address', claims.email);
    }
    const email = normalizeEmail(claims.email);
    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (this.settings.allowedDomains.length > 0 && !this.settings.allowedDomains.includes(domain)) {
      throw new SsoError('domain_not_allowed', `Accounts of ${domain} may not sign in here`, email);
    }
    return email;
  }

  /** Roles from the groups claim; undefined when the provider does not manage roles. */
  private rolesFrom(claims: Record<string, unknown>): Role[] | undefined {
    const { adminGroups, developerGroups, groupsClaim } = this.settings;
    if (adminGroups.length === 0 && developerGroups.length === 0) return undefined;
    const raw = claims[groupsClaim];
    const groups = new Set(
      Array.isArray(raw) ? raw.filter((g) => typeof g === 'string') : typeof raw === 'string' ? [raw] : [],
    );
    const roles: Role[] = [];
    if (adminGroups.some((g) => groups.has(g))) roles.push('administrator');
    if (developerGroups.some((g) => groups.has(g))) roles.push('developer');
    return roles;
  }

  private async accountFor(email: string, roles: Role[] | undefined): Promise<AccountRecord> {
    const at = new Date(this.deps.now()).toISOString();
    const existing = findAccount(this.deps, email);
    if (!existing) {
      const account: AccountRecord = { id: newId('acc_'), email, name: null, roles: roles ?? [], created_at: at };
      await commitAccounts(this.deps.state, { type: 'accounts.account_created', account });
      return this.deps.state.get(accountsPart).accounts.get(account.id)!;
    }
    const same =
      roles === undefined || (roles.length === existing.roles.length && roles.every((r) => existing.roles.includes(r)));
    if (!same)
      await commitAccounts(this.deps.state, { type: 'accounts.roles_set', id: existing.id, roles: roles!, at });
    return existing;
  }

  private prune(): void {
    const now = this.deps.now();
    for (const [state, p] of this.pending) if (p.expires <= now) this.pending.delete(state);
    while (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
  }
}
