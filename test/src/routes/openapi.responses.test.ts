/**
 * The documented success bodies are the ones the server sends: a walk through
 * the API (accounts, keys, service accounts, the control plane, documents,
 * upload sessions, agents, connectors, conversations, chat, analytics, audit,
 * settings, stats, models, search, health), and error answers of each envelope,
 * checks every real answer against the response schema its operation
 * documents, with a small checker of the JSON Schema keywords the document
 * uses (type, const, enum, properties, required, additionalProperties, items,
 * anyOf, allOf, $ref). A checker that accepted anything would fail the planted
 * mismatches at the end.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { connectorHarness, MASTER, type ConnectorHarness } from '../../support/connectors.ts';

let h: ConnectorHarness;
let doc: any;

before(async () => {
  h = await connectorHarness({ audit: true });
  doc = await (
    await h.app.request('/api/beta/openapi.json', { headers: { authorization: `Bearer ${MASTER}` } })
  ).json();
});
after(() => h.close());

const typeOf = (x: unknown) =>
  x === null ? 'null' : Array.isArray(x) ? 'array' : Number.isInteger(x) ? 'integer' : typeof x;

/** Problems of `value` against `schema`, with their JSON paths. */
function problems(schema: any, value: unknown, at = '$'): string[] {
  if (schema.$ref) return problems(doc.components.schemas[schema.$ref.split('/').pop()], value, at);
  if (schema.anyOf) {
    const each = schema.anyOf.map((s: any) => problems(s, value, at));
    return each.some((p: string[]) => p.length === 0) ? [] : [`${at}: matches no anyOf member (${each.flat()[0]})`];
  }
  if (schema.allOf) return schema.allOf.flatMap((s: any) => problems(s, value, at));
  const out: string[] = [];
  const t = typeOf(value);
  if (schema.type && !(schema.type === t || (schema.type === 'number' && t === 'integer')))
    return [`${at}: ${t}, documented ${schema.type}`];
  if ('const' in schema && schema.const !== value) out.push(`${at}: ${JSON.stringify(value)} is not ${schema.const}`);
  if (schema.enum && !schema.enum.includes(value)) out.push(`${at}: ${JSON.stringify(value)} not in enum`);
  if (t === 'object') {
    const obj = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!(name in obj)) out.push(`${at}.${name}: missing`);
    for (const [name, v] of Object.entries(obj)) {
      const s = schema.properties?.[name];
      if (s) out.push(...problems(s, v, `${at}.${name}`));
      else if (schema.additionalProperties === false) out.push(`${at}.${name}: not documented`);
      else if (typeof schema.additionalProperties === 'object')
        out.push(...problems(schema.additionalProperties, v, `${at}.${name}`));
    }
  }
  if (t === 'array' && schema.items)
    (value as unknown[]).forEach((v, i) => out.push(...problems(schema.items, v, `${at}[${i}]`)));
  return out;
}

/** Calls the operation and checks the answer against the body documented for `expected` (default: success). */
async function check(
  method: string,
  path: string,
  concrete: string,
  key: string | null,
  body?: unknown,
  expected?: number,
) {
  const res = await h.call(method.toUpperCase(), concrete, key, body);
  const op = doc.paths[path]?.[method];
  assert.ok(op, `${method} ${path} is documented`);
  const status = expected === undefined ? Object.keys(op.responses)[0] : String(expected);
  let response = op.responses[status];
  assert.ok(response, `${method} ${path} documents ${status}`);
  if (response.$ref) response = doc.components.responses[response.$ref.split('/').pop()];
  assert.equal(res.status, Number(status), `${method} ${concrete}: ${res.text}`);
  const schema = response.content?.['application/json']?.schema;
  if (schema) assert.deepEqual(problems(schema, res.body), [], `${method} ${concrete}`);
  return res.body;
}

test('a walk through the API answers what the document says', async () => {
  const a = '/api/admin';
  await check('post', `${a}/accounts`, `${a}/accounts`, MASTER, { email: 'walk@example.com', roles: ['developer'] });
  await check('get', `${a}/accounts`, `${a}/accounts`, MASTER);
  const key = await check('post', `${a}/accounts/{email}/keys`, `${a}/accounts/walk@example.com/keys`, MASTER, {});
  await check('put', `${a}/keys/{id}/expiry`, `${a}/keys/${key.id}/expiry`, MASTER, { expires_at: null });
  const sa = await check('post', `${a}/service-accounts`, `${a}/service-accounts`, MASTER, { name: 'walker' });
  await check('get', `${a}/service-accounts`, `${a}/service-accounts`, MASTER);
  await check('get', `${a}/accounts/{email}/sessions`, `${a}/accounts/walk@example.com/sessions`, MASTER);
  await check('post', `${a}/agents`, `${a}/agents`, MASTER, { name: 'Helper' });
  await check('get', `${a}/agents`, `${a}/agents`, MASTER);
  await check('get', `${a}/settings`, `${a}/settings`, MASTER);
  await check('get', `${a}/stats`, `${a}/stats`, MASTER);
  await check('get', `${a}/audit`, `${a}/audit`, MASTER);

  const i = '/api/indexing';
  const ds = { name: 'walk', display_name: 'Walk', subs: [{ name: 'Team', key: 'team' }] };
  await check('post', `${i}/datasources`, `${i}/datasources`, sa.key, ds);
  await check('get', `${i}/datasources/{name}`, `${i}/datasources/walk`, sa.key);
  await check('get', `${i}/file-types`, `${i}/file-types`, sa.key);
  await check('post', `${i}/users`, `${i}/users`, sa.key, { datasource: 'walk', user: { email: 'walk@example.com' } });
  await check('post', `${i}/groups`, `${i}/groups`, sa.key, { datasource: 'walk', group: { name: 'crew' } });
  const membership = { group_name: 'crew', member_email: 'walk@example.com' };
  await check('post', `${i}/memberships`, `${i}/memberships`, sa.key, { datasource: 'walk', membership });
  await check('get', `${i}/groups/{datasource}`, `${i}/groups/walk`, sa.key);
  const document = {
    datasource: 'walk',
    id: 'd1',
    title: 'D',
    file_type: 'wiki',
    permissions: { allowed_groups: ['crew'] },
  };
  const pushed = { documents: { ...document, body: { mime_type: 'text/plain', text_content: 'walk text' } } };
  await check('post', `${i}/documents`, `${i}/documents?wait=true`, sa.key, pushed);
  await check('get', `${i}/documents/{datasource}/{document_id}`, `${i}/documents/walk/d1`, sa.key);
  const access = { datasource: 'walk', document_id: 'd1', user_email: 'walk@example.com' };
  await check('post', `${i}/documents/check-access`, `${i}/documents/check-access?explain=true`, sa.key, access);
  const session = await check('post', `${i}/upload-sessions`, `${i}/upload-sessions`, sa.key, { datasource: 'walk' });
  const page = `${i}/upload-sessions/${session.upload_id}`;
  await check('post', `${i}/upload-sessions/{id}/documents`, `${page}/documents`, sa.key, pushed);
  await check('post', `${i}/upload-sessions/{id}/finish`, `${page}/finish`, sa.key);

  const c = await check('post', '/api/conversations', '/api/conversations', key.key, {
    title: 'T',
    messages: [{ role: 'user', content: 'hi' }],
  });
  await check('get', '/api/conversations/{id}', `/api/conversations/${c.id}`, key.key);
  await check('get', '/api/beta/serviceai/models', '/api/beta/serviceai/models', key.key);
  const completions = '/api/beta/serviceai/chat/completions';
  const question = { messages: [{ role: 'user', content: [{ type: 'text', text: 'walk text?' }] }], stop: ['x'] };
  await check('post', completions, completions, key.key, {
    ...question,
    tools: [{ function: { name: 'serviceSearch' } }],
  });
  await check('post', completions, completions, key.key, { ...question, n: 2 }, 422);
  await check('post', '/api/analytics/events', '/api/analytics/events', key.key, {
    type: 'feedback',
    id: 'feedback-1',
    rating: 'up',
  });
  await check('delete', '/api/analytics/history', '/api/analytics/history', key.key);
  await check('get', '/api/admin/analytics', '/api/admin/analytics', MASTER);
  await check('get', '/api/admin/connectors', '/api/admin/connectors', MASTER);
  await check('get', '/api/admin/connector-types', '/api/admin/connector-types', MASTER);
  await check('get', '/api/beta/search', '/api/beta/search?query=walk', key.key);
  await check('get', '/healthz', '/healthz', key.key);
});

test('error answers are in the envelopes the document gives their status', async () => {
  const models = '/api/beta/serviceai/models';
  await check('get', models, models, null, undefined, 401);
  await check('get', '/api/beta/serviceai/models/{model}', `${models}/nope`, MASTER, undefined, 403);
  await check('get', '/api/admin/agents/{id}', '/api/admin/agents/nope', MASTER, undefined, 404);
  await check('post', '/api/admin/accounts', '/api/admin/accounts', MASTER, { email: 1 }, 422);
  await check('get', '/api/admin/accounts', '/api/admin/accounts', 'wrong-key', undefined, 401);
  await check('post', '/api/admin/accounts', '/api/admin/accounts', MASTER, { email: 'walk@example.com' }, 409);
  const sa = await check('post', '/api/admin/service-accounts', '/api/admin/service-accounts', MASTER, { name: 'e' });
  const i = '/api/indexing';
  await check('post', `${i}/datasources`, `${i}/datasources`, sa.key, { name: 'errs', display_name: 'E' });
  const unknownProperty = {
    documents: { datasource: 'errs', id: 'x', file_type: 'wiki', custom_properties: [{ name: 'p', value: 'v' }] },
  };
  const push = await check('post', `${i}/documents`, `${i}/documents`, sa.key, unknownProperty, 422);
  assert.equal(push.status, 'error', 'the error_code envelope');
  const completions = '/api/beta/serviceai/chat/completions';
  const chat422 = await check('post', completions, completions, MASTER, { messages: [] }, 403);
  assert.equal(typeof chat422.error.message, 'string');
});

test('the checker finds planted mismatches', () => {
  const record = { $ref: '#/components/schemas/UploadSession' };
  assert.ok(problems(record, { upload_id: 1 }).length >= 2);
  assert.ok(problems(doc.components.schemas.SearchResponse, { results: [{ id: 'x', extra: 1 }] }).length > 0);
  assert.deepEqual(problems({ anyOf: [{ type: 'string' }, { type: 'null' }] }, null), []);
});
