/** Naming rules: slugs, sub keys derived from names, group names, email normalisation. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compoundSubValue, deriveKey, isSlug, normalizeEmail } from '../../../src/controlplane/index.ts';
import { groupNameProblem } from '../../../src/controlplane/names.ts';

test('slug form: lowercase words of letters and digits joined by single underscores', () => {
  for (const s of ['a', 'hr', 'hr_wiki', 'a1_b2', 'x9y']) assert.ok(isSlug(s), s);
  for (const s of ['', 'A', '1a', 'a-b', 'a b', 'a__b', '_a', 'a_', 'a_1', 'ä']) assert.ok(!isSlug(s), s);
});

test('deriveKey: words joined by underscore, accents dropped, no slug -> undefined', () => {
  assert.equal(deriveKey('Human Resources'), 'human_resources');
  assert.equal(deriveKey('  Sales & Marketing  '), 'sales_marketing');
  assert.equal(deriveKey('Über Straße'), 'uber_strasse');
  assert.equal(deriveKey('Team-2 (EMEA)'), 'team2_emea');
  assert.equal(deriveKey('Team 2'), 'team2');
  assert.equal(deriveKey('Payroll'), 'payroll');
  assert.equal(deriveKey('Q3 Reports'), 'q3_reports');
  for (const bad of ['', '   ', '!!!', '2024 Reports', '日本語', '2 Teams'])
    assert.equal(deriveKey(bad), undefined, bad);
});

test('group names: non-empty, no whitespace, no svc prefix in any case', () => {
  for (const ok of ['eng', 'Eng-EU', 'sv', 'serv', 'a.b@c', 'xsvc']) assert.equal(groupNameProblem(ok), undefined, ok);
  for (const bad of ['', 'a b', 'a\tb', 'a\u00a0b', 'svc', 'SVC_x', 'sVcTeam']) assert.ok(groupNameProblem(bad), bad);
});

test('emails are trimmed and lowercased; compound sub values', () => {
  assert.equal(normalizeEmail('  Alice@Example.COM\t'), 'alice@example.com');
  assert.equal(compoundSubValue('ds', 'hr'), 'ds__hr');
  assert.equal(compoundSubValue('ds', 'payroll', 'hr'), 'ds__hr__payroll');
});
