/**
 * The fast validation path of pushed documents agrees with the schema: whatever it accepts, the
 * schema accepts with the same output; whatever it declines goes to the schema (exact errors).
 * Checked on seeded random mutations of valid documents.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { documentSchema } from '../../../src/documents/schemas.ts';
import { fastValidDocument } from '../../../src/documents/schemas-fast-path.ts';
import { prng } from '../../support/prng.ts';

const MAX_BINARY = 64;
const schema = documentSchema(MAX_BINARY);

const valid = [
  { datasource: 'wiki', id: 'doc-1', file_type: 'wiki', body: { mime_type: 'text/plain', text_content: 'hello' } },
  {
    datasource: 'wiki',
    id: 'A.b_c-9',
    title: 'Travel policy',
    file_type: 'content',
    path: 'Wiki > HR',
    path_preview: 'HR',
    author: 'Ann',
    last_modified: '2026-01-01T00:00:00.000Z',
    data_source_sub: 'hr',
    data_source_sub_sub: 'policies',
    body: { mime_type: 'text/markdown; charset=utf-8', text_content: '' },
    permissions: {
      allow_anonymous_access: false,
      allowed_users: [{ email: 'ann@example.com' }],
      allowed_groups: ['staff'],
    },
    custom_properties: [
      { name: 'priority', value: 3 },
      { name: 'tags', value: ['a'] },
    ],
  },
  { datasource: 'd', id: 'x', file_type: 'email', body: { mime_type: 'application/pdf', binary_base64: 'SGVsbG8=' } },
  { datasource: 'd', id: 'x', file_type: 'email' },
];

/** Values that break one rule or another (types, lengths, patterns, extra keys, whitespace). */
const oddValues: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'x',
  'a/b',
  'ÄÖ',
  7,
  0,
  true,
  false,
  [],
  [1],
  {},
  { extra: 1 },
  'x'.repeat(600),
  'x'.repeat(2001),
  'not-a-date',
  '2026-13-45',
  '2026-01-01',
  ' ann@example.com ',
  'text/plain',
  'nota/type/x',
  '@@@',
  'SGVsbG8',
  'SGVsbG8=',
  'A'.repeat(200),
  [{ email: 'x@y.z' }],
  [{ email: '  ' }],
  [{ email: 'x@y.z', extra: 1 }],
  [''],
  ['g'],
  [{ name: 'n', value: 1 }],
  [{ name: '', value: 1 }],
  [{ name: 'n' }],
  { text_content: 'x' },
  { mime_type: 'text/plain' },
  { mime_type: 'text/plain', text_content: 'a', binary_base64: 'SGVsbG8=' },
];

const clone = <T>(x: T): T => (x === undefined ? x : structuredClone(x));

function mutate(doc: Record<string, unknown>, rng: ReturnType<typeof prng>): unknown {
  const d = clone(doc);
  const paths: string[][] = [];
  const walk = (o: unknown, path: string[]) => {
    if (typeof o !== 'object' || o === null) return;
    for (const k of Object.keys(o)) {
      paths.push([...path, k]);
      walk((o as Record<string, unknown>)[k], [...path, k]);
    }
  };
  walk(d, []);
  const keys = [
    'datasource',
    'id',
    'title',
    'body',
    'file_type',
    'path',
    'author',
    'last_modified',
    'permissions',
    'custom_properties',
    'data_source_sub',
    'unknown_key',
  ];
  const n = 1 + rng.int(2);
  for (let i = 0; i < n; i++) {
    const path = rng.next() < 0.6 && paths.length > 0 ? rng.pick(paths) : [rng.pick(keys)];
    let target = d as Record<string, unknown>;
    for (const k of path.slice(0, -1)) {
      if (typeof target[k] !== 'object' || target[k] === null) break;
      target = target[k] as Record<string, unknown>;
    }
    const last = path[path.length - 1];
    if (rng.next() < 0.15) delete target[last];
    else target[last] = clone(rng.pick(oddValues));
  }
  return d;
}

test('the fast path accepts typical valid documents unchanged', () => {
  for (const doc of valid) assert.equal(fastValidDocument(doc, MAX_BINARY), doc);
});

test('whatever the fast path accepts, the schema accepts with the same output', () => {
  const rng = prng(20261122);
  let accepted = 0;
  let declined = 0;
  for (let i = 0; i < 4000; i++) {
    const doc = mutate(rng.pick(valid), rng);
    const fast = fastValidDocument(doc, MAX_BINARY);
    const full = v.safeParse(schema, doc, { abortEarly: false });
    if (fast === undefined) {
      declined++;
      continue;
    }
    accepted++;
    assert.ok(full.success, `schema rejects what the fast path accepted: ${JSON.stringify(doc)}`);
    assert.deepEqual(full.output, fast);
  }
  assert.ok(accepted > 200 && declined > 200, `both paths exercised (accepted ${accepted}, declined ${declined})`);
});

test('emails that the schema trims take the schema path', () => {
  const doc = { ...valid[0], permissions: { allowed_users: [{ email: ' ann@example.com' }] } };
  assert.equal(fastValidDocument(doc, MAX_BINARY), undefined);
  assert.equal(v.parse(schema, doc).permissions?.allowed_users?.[0].email, 'ann@example.com');
});

test('a binary over the size limit is declined', () => {
  const doc = { ...valid[2], body: { mime_type: 'application/pdf', binary_base64: 'A'.repeat(128) } };
  assert.equal(fastValidDocument(doc, MAX_BINARY), undefined);
  assert.equal(v.safeParse(schema, doc).success, false);
});
