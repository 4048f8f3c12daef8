/**
 * GET /api/beta/openapi.json: a structurally valid OpenAPI 3.1 document with
 * version v0.1.46 whose search parameters, result record and 422 body are the
 * validator's own schemas. Expectations are derived from the same schema
 * objects (so the test cannot drift either), and checked against behaviour.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { SearchQuerySchema } from '../../../src/search/schemas.ts';
import { API_VERSION, SearchResponseSchema, ValidationErrorResponseSchema } from '../../../src/search/openapi.ts';
import { SEARCH_RESULT_FIELDS } from '../../../src/search/result.ts';
import { validateSearchQuery } from '../../../src/search/schemas.ts';
import { searchHarness, type SearchHarness } from '../../support/search.ts';

let h: SearchHarness;
let doc: any;
const me = { email: 'oa@example.com' };

before(async () => {
  h = await searchHarness();
  await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' });
  await h.register('wiki', me.email);
  await h.push([
    {
      datasource: 'wiki',
      id: 'a',
      title: 'Alpha',
      file_type: 'wiki',
      path: 'A > B',
      body: { mime_type: 'text/plain', text_content: 'alpha beta gamma' },
    },
  ]);
  await h.commit();
  assert.equal((await h.app.request('/api/beta/openapi.json')).status, 401, 'a bearer credential is required');
  const r = await h.app.request('/api/beta/openapi.json', {
    headers: { authorization: `Bearer ${await h.personal(me.email)}` },
  });
  assert.equal(r.status, 200);
  doc = await r.json();
  assert.equal(
    (await h.app.request('/api/beta/openapi.json', { headers: { authorization: `Bearer ${h.key}` } })).status,
    200,
    'a service-account key will do',
  );
});
after(() => h.close());

/** Validation actions of a (piped, optional-wrapped) valibot schema, outermost last. */
function actions(schema: any): any[] {
  const out: any[] = [];
  const walk = (s: any) => {
    if (s.pipe) {
      walk(s.pipe[0]);
      out.push(...s.pipe.slice(1));
    } else if (s.wrapped) walk(s.wrapped);
  };
  walk(schema);
  return out;
}
const requirement = (schema: any, type: string) => actions(schema).find((a) => a.type === type)?.requirement;

const OPERATION_KEYS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const SCHEMA_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'default',
  'description',
  'title',
  'examples',
  '$ref',
  'format',
]);

function checkSchema(s: any, where: string, refs: string[]): void {
  assert.ok(s && typeof s === 'object' && !Array.isArray(s), `${where}: schema object`);
  for (const [k, val] of Object.entries(s)) {
    assert.ok(SCHEMA_KEYWORDS.has(k) || k.startsWith('x-'), `${where}: unknown keyword ${k}`);
    if (k === '$ref') refs.push(val as string);
    if (k === 'type')
      assert.ok(
        ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'].includes(val as string),
        `${where}: type ${val}`,
      );
    if (k === 'pattern') assert.doesNotThrow(() => new RegExp(val as string, 'u'), `${where}: pattern compiles`);
    if (k === 'properties') for (const [p, ps] of Object.entries(val as object)) checkSchema(ps, `${where}.${p}`, refs);
    if (k === 'items' || (k === 'additionalProperties' && typeof val === 'object'))
      checkSchema(val, `${where}.${k}`, refs);
    if (k === 'anyOf' || k === 'oneOf' || k === 'allOf')
      (val as any[]).forEach((x, i) => checkSchema(x, `${where}.${k}[${i}]`, refs));
    if (k === 'required')
      assert.ok(
        (val as string[]).every((r) => r in (s.properties ?? {})),
        `${where}: required names exist`,
      );
  }
}

describe('OpenAPI 3.1 structure', () => {
  test('openapi, info with the version, paths, components; every $ref resolves', () => {
    assert.match(doc.openapi, /^3\.1\.\d+$/);
    assert.equal(doc.info.version, 'v0.1.46');
    assert.equal(API_VERSION, 'v0.1.46');
    assert.equal(typeof doc.info.title, 'string');
    const refs: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      assert.ok(path.startsWith('/'));
      for (const [method, op] of Object.entries<any>(item)) {
        assert.ok(OPERATION_KEYS.has(method));
        assert.ok(Object.keys(op.responses).length > 0);
        for (const [code, resp] of Object.entries<any>(op.responses)) {
          assert.match(code, /^[1-5]\d\d$|^default$/);
          assert.equal(typeof resp.description, 'string');
          for (const media of Object.values<any>(resp.content ?? {}))
            checkSchema(media.schema, `${path} ${code}`, refs);
        }
        const names = new Set<string>();
        for (const p of op.parameters) {
          assert.ok(['query', 'header', 'path', 'cookie'].includes(p.in));
          assert.equal(typeof p.name, 'string');
          assert.ok(!names.has(p.name), 'parameter names are unique');
          names.add(p.name);
          assert.equal(typeof p.required, 'boolean');
          checkSchema(p.schema, `param ${p.name}`, refs);
        }
      }
    }
    for (const [name, s] of Object.entries<any>(doc.components.schemas)) checkSchema(s, name, refs);
    for (const ref of refs) {
      const m = /^#\/components\/schemas\/(.+)$/.exec(ref);
      assert.ok(m && doc.components.schemas[m[1]], `ref ${ref} resolves`);
    }
  });
});

describe('parameters are the validator', () => {
  const params = () => doc.paths['/api/beta/search'].get.parameters as any[];

  test('one query parameter per validator entry, in order, required iff the validator requires it', () => {
    const entries = Object.entries<any>(SearchQuerySchema.entries);
    assert.deepEqual(
      params().map((p) => p.name),
      entries.map(([n]) => n),
    );
    for (const [name, s] of entries) {
      const p = params().find((x) => x.name === name);
      assert.equal(p.in, 'query');
      const accepts = v.safeParse(s, undefined).success;
      assert.equal(p.required, !accepts, name);
    }
    assert.equal(params().find((p) => p.name === 'query').required, true);
  });

  test('bounds, lengths, patterns and defaults come from the schema objects', () => {
    for (const [name, s] of Object.entries<any>(SearchQuerySchema.entries)) {
      const p = params().find((x) => x.name === name).schema;
      assert.equal(p.minimum, requirement(s, 'min_value'), `${name} minimum`);
      assert.equal(p.maximum, requirement(s, 'max_value'), `${name} maximum`);
      assert.equal(p.minLength, requirement(s, 'min_length'), `${name} minLength`);
      assert.equal(p.maxLength, requirement(s, 'max_length'), `${name} maxLength`);
      const regex = requirement(s, 'regex');
      if (regex) assert.equal(p.pattern, regex.source, `${name} pattern`);
      const parsedDefault = v.safeParse(s, undefined);
      if (parsedDefault.success) assert.deepEqual(p.default, parsedDefault.output, `${name} default`);
    }
    const count = params().find((x) => x.name === 'count').schema;
    assert.deepEqual([count.type, count.minimum, count.maximum, count.default], ['integer', 1, 100, 50]);
    assert.deepEqual([params().find((x) => x.name === 'start_page').schema.minimum], [0]);
  });

  test('the documented rules hold over HTTP: integer bounds, enums and patterns', async () => {
    for (const p of params()) {
      const s = p.schema;
      if (s.type === 'integer') {
        const ok = async (n: number) => (await h.search(me, { query: 'alpha', [p.name]: n })).status;
        if (s.minimum !== undefined) {
          assert.equal(await ok(s.minimum), 200, `${p.name}=${s.minimum}`);
          assert.equal(await ok(s.minimum - 1), 422, `${p.name}=${s.minimum - 1}`);
        }
        if (s.maximum !== undefined) {
          assert.equal(await ok(s.maximum), 200);
          assert.equal(await ok(s.maximum + 1), 422);
        }
      }
      const enums = [...(s.enum ?? []), ...(s.anyOf ?? []).flatMap((x: any) => x.enum ?? [])];
      for (const e of enums)
        assert.doesNotThrow(() => validateSearchQuery({ query: 'x', [p.name]: e }), `${p.name}=${e}`);
      if (s.pattern) {
        assert.throws(
          () => validateSearchQuery({ query: 'x', [p.name]: 'Not Valid!' }),
          `${p.name} rejects what its pattern rejects`,
        );
        assert.doesNotThrow(() => validateSearchQuery({ query: 'x', [p.name]: s.default }));
      }
    }
  });
});

describe("responses are the server's", () => {
  test('a real result validates against the documented record, whose properties are the whitelist', async () => {
    const r = await h.search(me, { query: 'alpha' });
    assert.equal(r.status, 200);
    assert.equal(r.body.results.length, 1);
    assert.ok(v.safeParse(SearchResponseSchema, r.body).success);
    const record = doc.components.schemas.SearchResult;
    assert.deepEqual(Object.keys(record.properties), [...SEARCH_RESULT_FIELDS]);
    assert.deepEqual([...record.required].sort(), [...SEARCH_RESULT_FIELDS].sort());
    assert.equal(record.additionalProperties, false);
    assert.deepEqual(Object.keys(r.body.results[0]), Object.keys(record.properties));
  });

  test('a real 422 validates against the documented error body', async () => {
    const r = await h.search(me, { count: 0 });
    assert.equal(r.status, 422);
    assert.ok(v.safeParse(ValidationErrorResponseSchema, r.body).success, JSON.stringify(r.body));
    assert.deepEqual(doc.components.schemas.ValidationError.required, ['loc', 'msg', 'type']);
  });
});
