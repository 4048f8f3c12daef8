/**
 * The robots.txt parser against RFC 9309: groups and their user agents, combining groups,
 * the `*` fallback, longest match with `allow` on ties, `*` and `$`, percent-encoding,
 * comments and malformed lines, `/robots.txt` always allowed, sitemaps and crawl-delay.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matches, normalise, parseRobots, productToken } from '../../../../src/connectors/website/robots.ts';

const TOKEN = 'ExampleBot';

test('the group naming the product token applies, case-insensitively, else the * group', () => {
  const text = `
User-agent: *
Disallow: /

User-agent: examplebot/2.1
Disallow: /private
`;
  const r = parseRobots(text, TOKEN);
  assert.ok(r.allowed('/public'));
  assert.ok(!r.allowed('/private/x'));
  const other = parseRobots(text, 'OtherBot');
  assert.ok(!other.allowed('/public'), 'the * group for anyone else');
  assert.ok(parseRobots('', TOKEN).allowed('/anything'), 'no robots.txt content: all allowed');
  assert.ok(parseRobots('User-agent: OtherBot\nDisallow: /\n', TOKEN).allowed('/x'), 'no matching group: allowed');
});

test('consecutive user-agent lines share a group; a user-agent after rules starts one; groups combine', () => {
  const text = `
user-agent: a
user-agent: ExampleBot
disallow: /one
user-agent: b
disallow: /two
# blank lines and comments do not end a group

user-agent: examplebot
disallow: /three
`;
  const r = parseRobots(text, TOKEN);
  assert.ok(!r.allowed('/one'));
  assert.ok(r.allowed('/two'), 'the group of b alone');
  assert.ok(!r.allowed('/three'), 'both ExampleBot groups are combined');
});

test('the longest matching rule wins; allow wins a tie; no match allows', () => {
  const r = parseRobots(
    `User-agent: *
Allow: /docs/public
Disallow: /docs
Disallow: /tie
Allow: /tie
Disallow: /page
Allow: /pa*`,
    TOKEN,
  );
  assert.ok(r.allowed('/docs/public/a.html'));
  assert.ok(!r.allowed('/docs/internal'));
  assert.ok(r.allowed('/tie'));
  assert.ok(!r.allowed('/page'), '/page (5) is longer than /pa* (4)');
  assert.ok(r.allowed('/other'));
});

test('wildcards and end anchors', () => {
  const r = parseRobots(
    `User-agent: *
Disallow: /*.pdf$
Disallow: /search?*q=
Disallow: /exact$
Allow: /`,
    TOKEN,
  );
  assert.ok(!r.allowed('/files/a.pdf'));
  assert.ok(r.allowed('/files/a.pdf?download=1'), '$ anchors at the end of path and query');
  assert.ok(!r.allowed('/search?lang=de&q=x'));
  assert.ok(r.allowed('/search?lang=de'));
  assert.ok(!r.allowed('/exact'));
  assert.ok(r.allowed('/exactly'));
  assert.ok(matches('/a*b*c', '/axxbyyc/z'));
  assert.ok(!matches('/a*b*c$', '/axxbyyc/z'));
  assert.ok(matches('/***', '/'));
});

test('percent-encoding is compared normalised, non-ASCII as UTF-8', () => {
  const r = parseRobots(
    `User-agent: *
Disallow: /f%C3%BCr
Disallow: /%7Euser
Disallow: /a%2fb`,
    TOKEN,
  );
  assert.ok(!r.allowed('/für/x'), 'the pattern encoded, the path raw');
  assert.ok(!r.allowed('/~user/home'), '%7E is the unreserved ~');
  assert.ok(!r.allowed('/a%2Fb'), 'other escapes compare upper-cased');
  assert.ok(r.allowed('/a/b'), 'an encoded slash is not a slash');
  assert.equal(normalise('/%7e%2f%c3%a4ä'), '/~%2F%C3%A4%C3%A4');
});

test('empty values, rules outside groups and malformed lines are ignored; robots.txt is allowed', () => {
  const r = parseRobots(
    `Disallow: /before-any-group
User-agent: *
Disallow:
this line has no colon
Foo: bar
Disallow: /x # a comment
Disallow: /`,
    TOKEN,
  );
  assert.ok(!r.allowed('/before-any-group'), 'covered by Disallow: / of the group');
  assert.ok(r.allowed('/robots.txt'));
  const empty = parseRobots('User-agent: *\nDisallow:\n', TOKEN);
  assert.ok(empty.allowed('/anything'), 'an empty disallow allows everything');
  assert.ok(parseRobots('Disallow: /\n', TOKEN).allowed('/x'), 'a rule before any group applies to no one');
});

test('sitemaps anywhere, crawl-delay of the chosen group, a BOM and CR line ends', () => {
  const r = parseRobots(
    '\ufeffSitemap: https://a.example/sitemap.xml\r\nUser-agent: ExampleBot\r\nCrawl-delay: 2.5\r\nDisallow: /x\r\nUser-agent: *\rCrawl-delay: 9\rsitemap: https://a.example/more.xml',
    TOKEN,
  );
  assert.deepEqual(r.sitemaps, ['https://a.example/sitemap.xml', 'https://a.example/more.xml']);
  assert.equal(r.crawlDelay, 2.5);
  assert.ok(!r.allowed('/x'));
});

test('the product token of a user agent string', () => {
  assert.equal(productToken('EnterpriseSearchCrawler/0.1 (+https://x)'), 'EnterpriseSearchCrawler');
  assert.equal(productToken('my_bot-2'), 'my_bot-');
});
