/**
 * Literal and object-type items: a value outside a set of literals names every
 * accepted value (also for a union of literals and picklists), and a
 * non-object where an object is expected is a type error, never extra_forbidden.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { RequestValidationError } from '../../../src/errors.ts';
import { validate } from '../../../src/validation/pydantic.ts';

function first(schema: v.GenericSchema, value: unknown) {
  try {
    validate(schema, value, 'body');
  } catch (err) {
    assert.ok(err instanceof RequestValidationError);
    return err.items[0];
  }
  assert.fail('expected a validation error');
}

test('a union of a literal and a picklist lists every value', () => {
  const item = first(v.strictObject({ mode: v.nullish(v.union([v.literal(''), v.picklist(['search', 'context'])])) }), {
    mode: 'bing',
  });
  assert.deepEqual(item, {
    type: 'literal_error',
    loc: ['body', 'mode'],
    msg: "Input should be '', 'search' or 'context'",
    input: 'bing',
    ctx: { expected: "'', 'search' or 'context'" },
  });
});

test('single literals, quoted and bare, name their value', () => {
  assert.equal(first(v.literal('function'), 'x').msg, "Input should be 'function'");
  assert.equal(first(v.literal(3), 4).msg, "Input should be '3'");
  assert.equal(first(v.picklist(['a "q"', 'b']), 'c').msg, `Input should be 'a "q"' or 'b'`);
});

test('a union that is not only literals reports its first branch', () => {
  assert.equal(first(v.union([v.string(), v.number()]), true).type, 'string_type');
});

test('a non-object where a strict object is expected is model_attributes_type; an unknown key is extra_forbidden', () => {
  const schema = v.strictObject({ p: v.optional(v.strictObject({ a: v.optional(v.string()) })) });
  for (const bad of ['x', 3, null, true]) {
    const item = first(schema, { p: bad });
    assert.equal(item.type, 'model_attributes_type', JSON.stringify(item));
    assert.deepEqual(item.loc, ['body', 'p']);
  }
  assert.equal(first(schema, { p: { b: 1 } }).type, 'extra_forbidden');
});
