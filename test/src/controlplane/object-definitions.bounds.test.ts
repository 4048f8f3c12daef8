/**
 * Open fields of object definitions are bounded (README, Limits): at most 64
 * levels deep and 65,536 characters of JSON per definition, else 422; a
 * deeper value stored before the limit existed still reads (as a placeholder).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { CreateDatasourceSchema } from '../../../src/controlplane/schemas.ts';
import { datasourceView } from '../../../src/controlplane/views.ts';
import type { DatasourceState } from '../../../src/controlplane/state.ts';

const nested = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));
const create = (extra: unknown) =>
  v.safeParse(CreateDatasourceSchema, {
    name: 'ds',
    display_name: 'DS',
    object_definitions: [{ name: 'page', extra }],
  });

test('an open field nested 64 levels is kept, 65 levels is rejected', () => {
  const ok = create(nested(64));
  assert.equal(ok.success, true);
  assert.deepEqual(ok.output!.object_definitions[0].extra, nested(64));
  const bad = create(nested(65));
  assert.equal(bad.success, false);
  assert.match(bad.issues![0].message, /at most 64 levels/);
  assert.equal(create(nested(5000)).success, false);
});

test('open fields larger than 65,536 characters of JSON are rejected', () => {
  assert.equal(create('x'.repeat(60_000)).success, true);
  assert.equal(create('x'.repeat(70_000)).success, false);
  assert.equal(create(Array.from({ length: 20_000 }, () => 1234)).success, false);
});

test('a view of a definition stored before the limit can always be written', () => {
  const ds = {
    record: {
      name: 'ds',
      display_name: 'DS',
      icon_base64: null,
      subs: [],
      created_at: '',
      updated_at: '',
      object_definitions: [{ name: 'page', property_definitions: [], deep: nested(5000), shallow: nested(3) }],
    },
  } as unknown as DatasourceState;
  const view = datasourceView(ds);
  const def = view.object_definitions[0];
  assert.deepEqual(def.shallow, nested(3));
  assert.equal(typeof JSON.stringify(view), 'string');
  assert.match(JSON.stringify(def.deep), /nested deeper than 65 levels/);
});
