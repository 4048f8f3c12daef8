/** Document field validation (Pydantic envelope) and access tokens. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RequestValidationError } from '../../../src/errors.ts';
import { validate } from '../../../src/validation/pydantic.ts';
import { base64DecodedSize, documentSchema } from '../../../src/documents/schemas.ts';
import { documentTokens, parseToken } from '../../../src/documents/tokens.ts';

const schema = documentSchema(1000);
const base = {
  datasource: 'wiki',
  id: 'doc-1',
  file_type: 'wiki',
  body: { mime_type: 'text/plain', text_content: 'hello' },
};

function fails(doc: unknown) {
  try {
    validate(schema, doc, 'body');
  } catch (err) {
    assert.ok(err instanceof RequestValidationError);
    return err.items;
  }
  assert.fail('expected a validation error');
}

test('a minimal valid document passes', () => {
  assert.equal(validate(schema, base, 'body').id, 'doc-1');
});

test('id allows alphanumerics, hyphen, underscore and dot only', () => {
  assert.equal(validate(schema, { ...base, id: 'A.b_c-9' }, 'body').id, 'A.b_c-9');
  const [item] = fails({ ...base, id: 'a/b' });
  assert.equal(item.type, 'string_pattern_mismatch');
  assert.deepEqual(item.loc, ['body', 'id']);
});

test('file_type must be one of the 18 values', () => {
  const [item] = fails({ ...base, file_type: 'pdf' });
  assert.equal(item.type, 'literal_error');
  assert.deepEqual(item.loc, ['body', 'file_type']);
  assert.match(item.msg, /'message'.*'asset'/);
});

test('body needs exactly one of text_content and binary_base64', () => {
  const both = fails({ ...base, body: { mime_type: 'text/plain', text_content: 'x', binary_base64: 'eA==' } });
  assert.match(both[0].msg, /exactly one of text_content or binary_base64/);
  assert.deepEqual(both[0].loc, ['body', 'body']);
  const none = fails({ ...base, body: { mime_type: 'text/plain' } });
  assert.match(none[0].msg, /exactly one/);
});

test('binary_base64 must be standard Base64 within the decoded size limit', () => {
  assert.ok(validate(schema, { ...base, body: { mime_type: 'application/pdf', binary_base64: 'aGVsbG8=' } }, 'body'));
  for (const bad of ['aGVsbG8', 'aGV sbG8=', 'aGVs_bG8=', 'aGVsbG8=\n']) {
    const [item] = fails({ ...base, body: { mime_type: 'application/pdf', binary_base64: bad } });
    assert.deepEqual(item.loc, ['body', 'body', 'binary_base64'], bad);
    assert.match(item.msg, /standard Base64/);
  }
  const big = 'A'.repeat(1336);
  const [item] = fails({ ...base, body: { mime_type: 'application/pdf', binary_base64: big } });
  assert.match(item.msg, /exceeds the limit of 1000 bytes/);
});

test('decoded size is computed from length and padding', () => {
  assert.equal(base64DecodedSize(''), 0);
  assert.equal(base64DecodedSize('aA=='), 1);
  assert.equal(base64DecodedSize('aGk='), 2);
  assert.equal(base64DecodedSize('aGVs'), 3);
});

test('unknown document fields and bad timestamps are reported', () => {
  const items = fails({ ...base, colour: 'red', last_modified: 'yesterday' });
  assert.deepEqual(items.map((i) => i.loc.at(-1)).sort(), ['colour', 'last_modified']);
});

test('access tokens: anonymous by default, users lowercased, groups as named, scoped to the datasource', () => {
  assert.deepEqual(documentTokens('wiki', undefined), ['wiki|*']);
  assert.deepEqual(documentTokens('wiki', { allow_anonymous_access: true }), ['wiki|*']);
  assert.deepEqual(
    documentTokens('wiki', { allowed_users: [{ email: ' Ann@X.org ' }], allowed_groups: ['Eng', 'eng'] }),
    ['wiki|g|Eng', 'wiki|g|eng', 'wiki|u|ann@x.org'],
  );
  assert.deepEqual(documentTokens('wiki', { allow_anonymous_access: false }), []);
  assert.deepEqual(parseToken('wiki|g|a|b'), { datasource: 'wiki', kind: 'group', value: 'a|b' });
});
