/**
 * GET /api/beta/openapi.json describes the whole API: every operation the
 * real app mounts (with connectors, documents and upload sessions on) is in
 * the document and nothing else is, each with its error envelopes and its
 * credentials; the request schemas are the handlers' own (checked by sending
 * what the document says is invalid and valid); lazily chosen fields (chat
 * `stop`, message `content`) keep every form they accept.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { connectorHarness, MASTER, type ConnectorHarness } from '../../support/connectors.ts';

let h: ConnectorHarness;
let doc: any;

/** Operations of the compatible chat API that the service refuses with 400 (README, Chat). */
const REFUSED = new Set([
  'delete /api/beta/serviceai/models/{model}',
  'get /api/beta/serviceai/chat/completions',
  'get /api/beta/serviceai/chat/completions/{id}',
  'post /api/beta/serviceai/chat/completions/{id}',
  'delete /api/beta/serviceai/chat/completions/{id}',
  'get /api/beta/serviceai/chat/completions/{id}/messages',
]);

before(async () => {
  h = await connectorHarness({ audit: true });
  const r = await h.app.request('/api/beta/openapi.json', { headers: { authorization: `Bearer ${MASTER}` } });
  assert.equal(r.status, 200);
  doc = await r.json();
});
after(() => h.close());

const operations = () =>
  Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    Object.entries<any>(item).map(([method, op]) => ({ path, method, op })),
  );

describe('coverage', () => {
  test('every mounted operation is described, and every described one is mounted', () => {
    const mounted = new Set<string>();
    for (const route of h.app.routes) {
      if (route.method === 'ALL' || route.path.includes('*')) continue;
      const path = route.path.replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, '{$1}');
      const key = `${route.method.toLowerCase()} ${path}`;
      if (!REFUSED.has(key)) mounted.add(key);
    }
    const described = new Set(operations().map(({ path, method }) => `${method} ${path}`));
    assert.ok(mounted.size >= 75, `the app mounts ${mounted.size} operations`);
    assert.deepEqual([...mounted].filter((k) => !described.has(k)).sort(), [], 'mounted but not described');
    assert.deepEqual([...described].filter((k) => !mounted.has(k)).sort(), [], 'described but not mounted');
  });

  test('info, servers, tags and the security schemes', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, 'v0.1.46');
    assert.ok(doc.servers.length > 0);
    const schemes = doc.components.securitySchemes;
    for (const k of ['masterKey', 'personalKey', 'serviceAccountKey'])
      assert.deepEqual([schemes[k].type, schemes[k].scheme], ['http', 'bearer']);
    assert.deepEqual([schemes.session.in, schemes.session.name], ['cookie', 'es_session']);
    assert.deepEqual([schemes.csrfToken.in, schemes.csrfToken.name], ['header', 'X-CSRF-Token']);
    const ids = operations().map(({ op }) => op.operationId);
    assert.equal(new Set(ids).size, ids.length, 'operation ids are unique');
  });
});

describe('errors and credentials', () => {
  const resolved = (ref: any) => doc.components.responses[ref.$ref.split('/').pop()];
  const schemaOf = (ref: any) => resolved(ref).content['application/json'].schema;

  test('every operation answers 500; a secured one 401/403 in its envelope; a body 413 and 422', () => {
    for (const { path, method, op } of operations()) {
      const chat = path.startsWith('/api/beta/serviceai');
      const envelope = chat ? '#/components/schemas/ChatError' : '#/components/schemas/ErrorDetail';
      assert.equal(schemaOf(op.responses['500']).$ref, envelope, `${method} ${path} 500`);
      if (op.security.length > 0) {
        assert.equal(schemaOf(op.responses['401']).$ref, envelope, `${method} ${path} 401`);
        assert.equal(schemaOf(op.responses['403']).$ref, envelope, `${method} ${path} 403`);
      }
      if (op.requestBody) assert.ok(op.responses['413'] && op.responses['422'], `${method} ${path} 413/422`);
    }
  });

  test('the 422 envelopes: FastAPI items, and the error_code envelope on document pushes', async () => {
    const push = doc.paths['/api/indexing/documents'].post.responses['422'];
    const refs = schemaOf(push).anyOf.map((s: any) => s.$ref);
    assert.deepEqual(refs, ['#/components/schemas/HTTPValidationError', '#/components/schemas/SchemaErrorEnvelope']);
    assert.deepEqual(doc.components.schemas.SchemaErrorEnvelope.properties.details.required, ['error_code', 'message']);
    const bad = await h.call('POST', '/api/admin/accounts', MASTER, { email: 'x@example.com', extra: 1 });
    assert.equal(bad.status, 422);
    const item = doc.components.schemas.ValidationError;
    for (const name of item.required) assert.ok(name in bad.body.detail[0], name);
  });

  test('credentials follow the guards: sessions need the CSRF header only on changes', () => {
    const sec = (path: string, method: string) => doc.paths[path][method].security;
    assert.deepEqual(sec('/api/indexing/documents', 'post'), [{ serviceAccountKey: [] }]);
    assert.deepEqual(sec('/api/conversations', 'get'), [{ personalKey: [] }, { session: [] }]);
    assert.deepEqual(sec('/api/conversations', 'post'), [{ personalKey: [] }, { session: [], csrfToken: [] }]);
    assert.deepEqual(sec('/api/admin/accounts', 'get'), [{ masterKey: [] }, { personalKey: [] }, { session: [] }]);
    assert.deepEqual(sec('/healthz', 'get'), []);
  });
});

describe('request schemas are the validators', () => {
  const component = (name: string) => doc.components.schemas[name];

  test('chat: lazily chosen `stop` and message `content` keep both forms', () => {
    const body = component('ChatCompletionRequest');
    const stop = body.properties.stop.anyOf.map((s: any) => s.type);
    assert.deepEqual(stop.sort(), ['array', 'null', 'string']);
    const content = body.properties.messages.items.properties.content.anyOf.map((s: any) => s.type);
    assert.deepEqual(content.sort(), ['array', 'string']);
    assert.equal(body.additionalProperties, false);
    for (const f of ['messages', 'model', 'stream', 'temperature', 'metadata', 'tools', 'stream_options', 'n'])
      assert.ok(f in body.properties, f);
  });

  test('what a body schema forbids is refused, what it allows is accepted', async () => {
    const path = '/api/admin/agents';
    const schema = doc.paths[path].post.requestBody.content['application/json'].schema;
    const name = schema.properties.name;
    assert.equal(schema.additionalProperties, false);
    const at = (n: number) => h.call('POST', path, MASTER, { name: 'x'.repeat(n) });
    assert.equal((await at(name.maxLength + 1)).status, 422);
    assert.equal((await at(name.maxLength)).status, 201);
    assert.equal((await h.call('POST', path, MASTER, { name: 'a', unknown: 1 })).status, 422);
  });

  test('query strings: the audit limit and the search count are bounded integers', () => {
    const param = (path: string, name: string) =>
      doc.paths[path].get.parameters.find((p: any) => p.name === name).schema;
    assert.deepEqual(param('/api/beta/search', 'count'), { type: 'integer', minimum: 1, maximum: 100, default: 50 });
    assert.equal(param('/api/admin/audit', 'limit').pattern, '^\\d{1,4}$');
  });
});
