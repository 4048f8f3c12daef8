/**
 * OpenAPI operations of the admin API for people and credentials (master key,
 * or an administrator's key or browser session): accounts and their roles,
 * personal keys and their expiry, service accounts, passwords, one-time
 * sign-in links and browser sessions. Bodies are the handlers' schemas
 * (accounts/schemas.ts; the ones with "in the future" rules are built with
 * the server's clock, and the rule is a custom check).
 */
import * as v from 'valibot';
import {
  CreateAccountBody,
  createKeyBody,
  createServiceAccountBody,
  EmptyBody,
  keyExpiryBody,
  PasswordBody,
  SetRolesBody,
} from '../accounts/schemas.ts';
import type { Operation } from './operations.ts';
import type { SchemaRegistry } from './schema.ts';

const str = v.string();
const when = v.nullable(v.pipe(v.string(), v.description('ISO 8601 timestamp.')));
const Role = v.picklist(['administrator', 'developer']);

const KeyView = v.object({
  id: str,
  kind: v.picklist(['personal', 'service']),
  created_at: str,
  expires_at: when,
  revoked_at: when,
});

const AccountView = v.object({
  id: str,
  email: str,
  name: v.nullable(str),
  roles: v.array(Role),
  created_at: str,
  keys: v.array(KeyView),
});

const IssuedKey = v.object({
  id: str,
  key: v.pipe(v.string(), v.description('The secret; shown only in this answer.')),
  expires_at: when,
});

const ServiceAccountView = v.object({
  id: str,
  name: str,
  key_id: str,
  created_by: str,
  created_at: str,
  expires_at: when,
  revoked_at: when,
});

const SessionView = v.object({
  id: str,
  method: v.pipe(v.string(), v.description('How the session signed in (password, link, sso).')),
  created_at: str,
  seen_at: str,
  expires_at: str,
  address: str,
  user_agent: str,
});

export function adminAccountOperations(r: SchemaRegistry): Operation[] {
  const account = r.named('Account', AccountView);
  const key = r.named('ApiKey', KeyView);
  const now = () => Date.now();
  const adm = { tag: 'Admin: accounts and keys', access: 'admin' } as const;
  const email = { email: 'Account email.' };
  const op = (o: Omit<Operation, 'tag' | 'access'>): Operation => ({ ...adm, ...o });
  return [
    op({
      method: 'post',
      path: '/api/admin/accounts',
      id: 'create_account',
      summary: 'Create an account',
      body: CreateAccountBody,
      errors: [409],
      ok: { description: 'The account', schema: account },
    }),
    op({
      method: 'get',
      path: '/api/admin/accounts',
      id: 'list_accounts',
      summary: 'List accounts',
      ok: { description: 'Every account with its keys', schema: v.object({ accounts: v.array(account) }) },
    }),
    op({
      method: 'delete',
      path: '/api/admin/accounts/{email}',
      id: 'delete_account',
      summary: 'Delete an account',
      description: 'Revokes its keys and ends its sessions; its conversations and history are removed.',
      pathParams: email,
      errors: [404],
      ok: {
        description: 'Deleted',
        schema: v.object({ email: str, deleted: v.literal(true), revoked_keys: v.pipe(v.number(), v.integer()) }),
      },
    }),
    op({
      method: 'put',
      path: '/api/admin/accounts/{email}/roles',
      id: 'set_roles',
      summary: 'Set the roles of an account',
      pathParams: email,
      body: SetRolesBody,
      errors: [404, 409],
      ok: { description: 'The account', schema: account },
    }),
    op({
      method: 'post',
      path: '/api/admin/accounts/{email}/keys',
      id: 'create_personal_key',
      summary: 'Issue a personal key',
      description: 'The body may be left out (no expiry).',
      pathParams: email,
      body: createKeyBody(now),
      bodyOptional: true,
      errors: [404],
      ok: { description: 'The key with its secret', schema: IssuedKey },
    }),
    op({
      method: 'delete',
      path: '/api/admin/keys/{id}',
      id: 'revoke_key',
      summary: 'Revoke a key',
      pathParams: { id: 'Key id.' },
      errors: [404, 409],
      ok: { description: 'The revoked key', schema: key },
    }),
    op({
      method: 'put',
      path: '/api/admin/keys/{id}/expiry',
      id: 'set_key_expiry',
      summary: 'Set the expiry of a key',
      pathParams: { id: 'Key id.' },
      body: keyExpiryBody(now),
      errors: [404, 409],
      ok: { description: 'The key', schema: key },
    }),
    op({
      method: 'post',
      path: '/api/admin/service-accounts',
      id: 'create_service_account',
      summary: 'Create a service account',
      description: 'Needs the administrator and developer roles (or the master key). The key is for the Indexing API.',
      body: createServiceAccountBody(now),
      errors: [409],
      ok: {
        description: 'The service account with its key secret',
        schema: v.object({ id: str, name: str, key: IssuedKey.entries.key, key_id: str, expires_at: when }),
      },
    }),
    op({
      method: 'get',
      path: '/api/admin/service-accounts',
      id: 'list_service_accounts',
      summary: 'List service accounts',
      ok: { description: 'Every service account', schema: v.object({ service_accounts: v.array(ServiceAccountView) }) },
    }),
    op({
      method: 'put',
      path: '/api/admin/accounts/{email}/password',
      id: 'set_password',
      summary: 'Set the password of an account',
      description: '409 when password sign-in is turned off.',
      pathParams: email,
      body: PasswordBody,
      errors: [404, 409],
      ok: { description: 'Set', schema: v.object({ email: str, password_set_at: str }) },
    }),
    op({
      method: 'post',
      path: '/api/admin/accounts/{email}/sign-in-links',
      id: 'create_sign_in_link',
      summary: 'Create a one-time sign-in link',
      pathParams: email,
      body: EmptyBody,
      bodyOptional: true,
      errors: [404, 409],
      ok: { description: 'The link', schema: v.object({ email: str, url: str, expires_at: str }) },
    }),
    op({
      method: 'get',
      path: '/api/admin/accounts/{email}/sessions',
      id: 'list_sessions',
      summary: 'List the browser sessions of an account',
      pathParams: email,
      errors: [404],
      ok: { description: 'The live sessions, newest first', schema: v.object({ sessions: v.array(SessionView) }) },
    }),
    op({
      method: 'delete',
      path: '/api/admin/accounts/{email}/sessions',
      id: 'end_sessions',
      summary: 'End the browser sessions of an account',
      pathParams: email,
      errors: [404],
      ok: { description: 'Ended', schema: v.object({ email: str, ended: v.pipe(v.number(), v.integer()) }) },
    }),
  ];
}
