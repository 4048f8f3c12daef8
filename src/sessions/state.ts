/**
 * The `sessions` state part: browser sessions and one-time sign-in links,
 * kept with the rest of the control-plane state so that a sign-out, a revoke
 * by an administrator or the deletion of the account ends a session at once,
 * on every thread and after a restart.
 *
 * Only SHA-256 digests of the secrets are stored (the session token in the
 * cookie, the token in a sign-in link). Changed only through `sessions.<verb>`
 * events; `apply` trusts them (sessions.ts and links.ts validate first).
 */
import type { StatePart, StateStore } from '../state/store.ts';

/** How the person proved who they are; SSO adds its own method. */
export type SignInMethod = 'password' | 'link' | (string & {});

export interface SessionRecord {
  /** Public id (not a secret): listing and revoking. */
  id: string;
  /** SHA-256 of the cookie token, lowercase hex. */
  digest: string;
  account_id: string;
  /** The account's password_version at sign-in: a later password change ends the session. */
  password_version: number;
  method: SignInMethod;
  created_at: string;
  /** Last request seen, at the granularity of TOUCH_EVERY_MS (sessions.ts). */
  seen_at: string;
  /** Absolute end, whatever the activity. */
  expires_at: string;
  /** Client address and user agent at sign-in (shown to administrators; never secrets). */
  address: string;
  user_agent: string;
}

export interface SignInLinkRecord {
  id: string;
  /** SHA-256 of the link token, lowercase hex. */
  digest: string;
  account_id: string;
  created_at: string;
  expires_at: string;
  /** Who issued it: `master` or an administrator's email. */
  created_by: string;
  used_at: string | null;
}

export interface SessionsState {
  sessions: Map<string, SessionRecord>;
  sessionByDigest: Map<string, string>;
  links: Map<string, SignInLinkRecord>;
  linkByDigest: Map<string, string>;
}

export type SessionsEvent =
  | { type: 'sessions.created'; session: SessionRecord; pruned: string[] }
  | { type: 'sessions.seen'; id: string; at: string }
  | { type: 'sessions.ended'; ids: string[]; at: string }
  | { type: 'sessions.link_created'; link: SignInLinkRecord; pruned: string[] }
  | { type: 'sessions.link_used'; id: string; at: string };

interface SessionsJson {
  sessions: SessionRecord[];
  links: SignInLinkRecord[];
}

function emptyState(): SessionsState {
  return { sessions: new Map(), sessionByDigest: new Map(), links: new Map(), linkByDigest: new Map() };
}

function dropSession(s: SessionsState, id: string): void {
  const session = s.sessions.get(id);
  if (!session) return;
  s.sessions.delete(id);
  s.sessionByDigest.delete(session.digest);
}

function dropLink(s: SessionsState, id: string): void {
  const link = s.links.get(id);
  if (!link) return;
  s.links.delete(id);
  s.linkByDigest.delete(link.digest);
}

export const sessionsPart: StatePart<SessionsState, SessionsEvent> = {
  name: 'sessions',
  create: emptyState,
  apply(s, e) {
    switch (e.type) {
      case 'sessions.created':
        for (const id of e.pruned) dropSession(s, id);
        s.sessions.set(e.session.id, { ...e.session });
        s.sessionByDigest.set(e.session.digest, e.session.id);
        return;
      case 'sessions.seen': {
        const session = s.sessions.get(e.id);
        if (session && e.at > session.seen_at) session.seen_at = e.at;
        return;
      }
      case 'sessions.ended':
        for (const id of e.ids) dropSession(s, id);
        return;
      case 'sessions.link_created':
        for (const id of e.pruned) dropLink(s, id);
        s.links.set(e.link.id, { ...e.link });
        s.linkByDigest.set(e.link.digest, e.link.id);
        return;
      case 'sessions.link_used': {
        const link = s.links.get(e.id);
        if (link && link.used_at === null) link.used_at = e.at;
        return;
      }
    }
  },
  toJSON(s): SessionsJson {
    return { sessions: [...s.sessions.values()], links: [...s.links.values()] };
  },
  fromJSON(json) {
    const j = json as Partial<SessionsJson>;
    const s = emptyState();
    for (const session of j.sessions ?? []) {
      s.sessions.set(session.id, { ...session });
      s.sessionByDigest.set(session.digest, session.id);
    }
    for (const link of j.links ?? []) {
      s.links.set(link.id, { ...link });
      s.linkByDigest.set(link.digest, link.id);
    }
    return s;
  },
};

/** Commit a typed sessions event (see StateStore.commit for the contract). */
export function commitSessions(state: StateStore, event: SessionsEvent): Promise<void> {
  return state.commit(event);
}
