/** valibot issues become FastAPI/Pydantic v2 validation items with Pydantic's type names, messages and ctx. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { RequestValidationError } from '../../../src/errors.ts';
import { pyIssue, validate } from '../../../src/validation/pydantic.ts';

function items(schema: v.GenericSchema, value: unknown, where: 'body' | 'query' | 'path' = 'body') {
  try {
    validate(schema, value, where);
  } catch (err) {
    assert.ok(err instanceof RequestValidationError);
    return err.items;
  }
  assert.fail('expected a validation error');
}

const slug = /^[a-z][a-z0-9]*(_[a-z][a-z0-9]*)*$/;

test('missing field: type missing, input is the parent object', () => {
  const [item] = items(v.object({ name: v.string() }), { other: 1 });
  assert.deepEqual(item, { type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: { other: 1 } });
});

test('wrong types map to string_type, float_type, bool_type, list_type, model_attributes_type', () => {
  const schema = v.object({ s: v.string(), n: v.number(), b: v.boolean(), l: v.array(v.string()), o: v.object({}) });
  const got = items(schema, { s: 1, n: 'x', b: 'yes', l: 'no', o: 3 }).map((i) => [i.loc.at(-1), i.type, i.msg]);
  assert.deepEqual(got, [
    ['s', 'string_type', 'Input should be a valid string'],
    ['n', 'float_type', 'Input should be a valid number'],
    ['b', 'bool_type', 'Input should be a valid boolean'],
    ['l', 'list_type', 'Input should be a valid list'],
    ['o', 'model_attributes_type', 'Input should be a valid dictionary or object to extract fields from'],
  ]);
});

test('pattern mismatch carries the pattern in msg and ctx', () => {
  const [item] = items(v.object({ name: v.pipe(v.string(), v.regex(slug)) }), { name: 'Bad-Name' });
  assert.equal(item.type, 'string_pattern_mismatch');
  assert.equal(item.msg, `String should match pattern '${slug.source}'`);
  assert.deepEqual(item.ctx, { pattern: slug.source });
  assert.equal(item.input, 'Bad-Name');
});

test('bounds map to greater_than_equal / less_than_equal / string_too_short / string_too_long', () => {
  const schema = v.object({
    a: v.pipe(v.number(), v.minValue(1)),
    b: v.pipe(v.number(), v.maxValue(100)),
    c: v.pipe(v.string(), v.minLength(1)),
    d: v.pipe(v.string(), v.maxLength(3)),
  });
  const got = items(schema, { a: 0, b: 101, c: '', d: 'abcd' });
  assert.deepEqual(
    got.map((i) => [i.type, i.msg, i.ctx]),
    [
      ['greater_than_equal', 'Input should be greater than or equal to 1', { ge: 1 }],
      ['less_than_equal', 'Input should be less than or equal to 100', { le: 100 }],
      ['string_too_short', 'String should have at least 1 character', { min_length: 1 }],
      ['string_too_long', 'String should have at most 3 characters', { max_length: 3 }],
    ],
  );
});

test('picklist maps to literal_error with the expected values', () => {
  const [item] = items(v.object({ mode: v.picklist(['search', 'context', 'engine2']) }), { mode: 'x' });
  assert.equal(item.type, 'literal_error');
  assert.equal(item.msg, "Input should be 'search', 'context' or 'engine2'");
  assert.deepEqual(item.ctx, { expected: "'search', 'context' or 'engine2'" });
});

test('strict objects reject extra keys with extra_forbidden at the key', () => {
  const [item] = items(v.strictObject({ a: v.string() }), { a: 'x', b: 2 });
  assert.deepEqual(item, {
    type: 'extra_forbidden',
    loc: ['body', 'b'],
    msg: 'Extra inputs are not permitted',
    input: 2,
  });
});

test('nested paths include array indexes', () => {
  const [item] = items(v.object({ list: v.array(v.object({ k: v.string() })) }), { list: [{ k: 'a' }, { k: 5 }] });
  assert.deepEqual(item.loc, ['body', 'list', 1, 'k']);
});

test('custom checks name their Pydantic type through pyIssue', () => {
  const schema = v.object({
    count: v.pipe(
      v.string(),
      v.check(
        (s) => /^-?\d+$/.test(s),
        pyIssue('int_parsing', 'Input should be a valid integer, unable to parse string as an integer'),
      ),
    ),
  });
  const [item] = items(schema, { count: 'ten' }, 'query');
  assert.deepEqual(item, {
    type: 'int_parsing',
    loc: ['query', 'count'],
    msg: 'Input should be a valid integer, unable to parse string as an integer',
    input: 'ten',
  });
});

test('a non-object body is reported at loc [body]', () => {
  const [item] = items(v.object({ a: v.string() }), [1, 2]);
  assert.deepEqual(item.loc, ['body']);
  assert.equal(item.type, 'model_attributes_type');
});

test('valid input passes through with its output type', () => {
  const out = validate(v.object({ n: v.pipe(v.string(), v.transform(Number)) }), { n: '5' }, 'query');
  assert.deepEqual(out, { n: 5 });
});
