/**
 * Account emails: every address a mail system issues is a login email (an apostrophe or other RFC 5322
 * characters before the @-sign, letters beyond ASCII as in internationalized addresses), so that person
 * can hold an account and search what the Indexing API lets that email see. Malformed addresses are 422
 * with the reason, as Pydantic's email validation words it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MASTER_KEY } from '../../support/app.ts';
import { doc } from '../../support/documents.ts';
import { searchHarness } from '../../support/search.ts';

const VALID = [
  "sean.o'neill@corp.ie",
  'first&last@example.com',
  'a!b#c$d%e*f/g=h?i^j`k{l|m}n~o@example.com',
  'änne.müller@firma.de',
  'info@bücher.de',
  'user@sub-domain.example.co.uk',
];

test('addresses with RFC 5322 or non-ASCII characters get accounts, and those people see what is shared with them', async () => {
  const h = await searchHarness();
  try {
    assert.equal((await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' })).status, 200);
    const keys: string[] = [];
    for (const email of VALID) {
      const created = await h.call('POST', '/api/admin/accounts', MASTER_KEY, { email: email.toUpperCase() });
      assert.equal(created.status, 200, `${email}: ${JSON.stringify(created.body)}`);
      assert.equal(created.body.email, email.toLowerCase());
      const key = await h.call('POST', `/api/admin/accounts/${encodeURIComponent(email)}/keys`, MASTER_KEY, {});
      assert.equal(key.status, 200);
      keys.push(key.body.key);
      await h.register('wiki', email);
    }
    await h.push(
      VALID.map((email, i) => doc({ id: `d${i}`, title: 'Roadmap', permissions: { allowed_users: [{ email }] } })),
    );
    await h.commit();
    for (const [i, email] of VALID.entries()) {
      const r = await h.search({ key: keys[i] }, { query: 'roadmap' });
      assert.equal(r.status, 200);
      assert.deepEqual(
        r.body.results.map((x: { id: string }) => x.id),
        [`wiki:d${i}`],
        email,
      );
    }
  } finally {
    await h.close();
  }
});

test('malformed addresses are 422 value_error naming the reason', async () => {
  const h = await searchHarness();
  try {
    const cases: [string, string][] = [
      ['not-an-email', 'An email address must have an @-sign.'],
      ['@example.com', 'There must be something before the @-sign.'],
      ['ann@', 'There must be something after the @-sign.'],
      ['ann@localhost', 'The part after the @-sign is not valid. It should have a period.'],
      ['.ann@example.com', 'An email address cannot start with a period.'],
      ['ann.@example.com', 'An email address cannot have a period immediately before the @-sign.'],
      ['a..nn@example.com', 'An email address cannot have two periods in a row.'],
      ['an n@example.com', 'The email address contains invalid characters before the @-sign: SPACE.'],
      ['a@b@example.com', "The email address contains invalid characters before the @-sign: '@'."],
      ['ann@exa_mple.com', "The part after the @-sign contains invalid characters: '_'."],
      ['ann@-example.com', 'An email address cannot have a hyphen immediately after the @-sign.'],
      ['ann@example.com.', 'An email address cannot end with a period.'],
      [`${'a'.repeat(65)}@example.com`, 'The email address is too long before the @-sign (1 character too many).'],
    ];
    for (const [email, reason] of cases) {
      const r = await h.call('POST', '/api/admin/accounts', MASTER_KEY, { email });
      assert.equal(r.status, 422, email);
      assert.deepEqual(
        r.body.detail,
        [
          {
            type: 'value_error',
            loc: ['body', 'email'],
            msg: `value is not a valid email address: ${reason}`,
            input: email.toLowerCase(),
            ctx: { reason },
          },
        ],
        email,
      );
    }
  } finally {
    await h.close();
  }
});
