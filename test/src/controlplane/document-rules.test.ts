/** Document rules against datasource definitions: sub references and custom properties, with the spec's error codes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SchemaError } from '../../../src/errors.ts';
import {
  checkCustomProperties,
  matchesPropertyType,
  resolveSubReference,
  type DatasourceRecord,
} from '../../../src/controlplane/index.ts';

const at = '2026-01-01T00:00:00.000Z';
const record: DatasourceRecord = {
  name: 'ds',
  display_name: 'DS',
  icon_base64: null,
  subs: [
    { key: 'hr', name: 'HR' },
    { key: 'eng', name: 'Eng' },
    { key: 'payroll', name: 'Payroll', parent_key: 'hr' },
    { key: 'ops', name: 'Ops', parent_key: 'hr' },
    { key: 'ops', name: 'Ops', parent_key: 'eng' },
  ],
  object_definitions: [
    {
      name: 'page',
      property_definitions: [
        { name: 'dept', display_label: 'Dept', is_searchable: true, property_type: 'TEXT' },
        { name: 'n', display_label: 'N', is_searchable: false, property_type: 'INTEGER' },
        { name: 'when', display_label: 'When', is_searchable: false, property_type: 'DATE' },
        { name: 'flag', display_label: 'Flag', is_searchable: false, property_type: 'BOOLEAN' },
      ],
    },
  ],
  created_at: at,
  updated_at: at,
};
const bare: DatasourceRecord = { ...record, subs: [], object_definitions: [] };

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof SchemaError);
    return err.code;
  }
  return 'none';
};

test('sub references: valid, inferred, invalid and ambiguous', () => {
  assert.deepEqual(resolveSubReference(record), {});
  assert.deepEqual(resolveSubReference(record, 'hr'), { data_source_sub: 'hr', sub_value: 'ds__hr' });
  assert.deepEqual(resolveSubReference(record, 'hr', 'payroll'), {
    data_source_sub: 'hr',
    data_source_sub_sub: 'payroll',
    sub_value: 'ds__hr',
    sub_sub_value: 'ds__hr__payroll',
  });
  assert.deepEqual(resolveSubReference(record, undefined, 'payroll'), {
    data_source_sub: 'hr',
    data_source_sub_sub: 'payroll',
    sub_value: 'ds__hr',
    sub_sub_value: 'ds__hr__payroll',
  });
  assert.equal(resolveSubReference(record, 'eng', 'ops').sub_sub_value, 'ds__eng__ops');
  assert.equal(
    code(() => resolveSubReference(record, 'nope')),
    'INVALID_DATA_SOURCE_SUB',
  );
  assert.equal(
    code(() => resolveSubReference(record, 'payroll')),
    'INVALID_DATA_SOURCE_SUB',
    'a child key is no top-level sub',
  );
  assert.equal(
    code(() => resolveSubReference(record, 'eng', 'payroll')),
    'INVALID_DATA_SOURCE_SUB_SUB',
  );
  assert.equal(
    code(() => resolveSubReference(record, undefined, 'nope')),
    'INVALID_DATA_SOURCE_SUB_SUB',
  );
  assert.equal(
    code(() => resolveSubReference(record, undefined, 'ops')),
    'AMBIGUOUS_DATA_SOURCE_SUB_SUB',
  );
  assert.equal(
    code(() => resolveSubReference(bare, undefined, 'ops')),
    'INVALID_DATA_SOURCE_SUB',
  );
});

test('custom properties: definitions required, names known, values of the declared type', () => {
  assert.equal(
    code(() => checkCustomProperties(bare, [])),
    'none',
  );
  assert.equal(
    code(() => checkCustomProperties(bare, [{ name: 'dept', value: 'x' }])),
    'NO_PROPERTY_DEFINITIONS',
  );
  assert.equal(
    code(() => checkCustomProperties(record, [{ name: 'nope', value: 'x' }])),
    'UNKNOWN_PROPERTY',
  );
  assert.equal(
    code(() => checkCustomProperties(record, [{ name: 'n', value: '3' }])),
    'INVALID_PROPERTY_TYPE',
  );
  assert.equal(
    code(() =>
      checkCustomProperties(record, [
        { name: 'dept', value: 'x' },
        { name: 'n', value: 2.5 },
        { name: 'when', value: 1700000000 },
        { name: 'flag', value: false },
      ]),
    ),
    'none',
  );
});

test('accepted JSON values per property_type', () => {
  const ok: [Parameters<typeof matchesPropertyType>[0], unknown][] = [
    ['TEXT', ''],
    ['INTEGER', 3],
    ['INTEGER', -1.5],
    ['DATE', 0],
    ['DATE', '2024-05-01'],
    ['DATE', '2024-05-01T10:00:00Z'],
    ['DATE', '2024-05-01T10:00:00.123+02:00'],
    ['BOOLEAN', true],
  ];
  const bad: [Parameters<typeof matchesPropertyType>[0], unknown][] = [
    ['TEXT', 1],
    ['INTEGER', '1'],
    ['INTEGER', Number.NaN],
    ['DATE', 'yesterday'],
    ['DATE', '2024-13-45'],
    ['DATE', true],
    ['BOOLEAN', 'true'],
    ['BOOLEAN', 0],
    ['TEXT', null],
  ];
  for (const [t, v] of ok) assert.ok(matchesPropertyType(t, v), `${t} ${JSON.stringify(v)}`);
  for (const [t, v] of bad) assert.ok(!matchesPropertyType(t, v), `${t} ${JSON.stringify(v)}`);
});
