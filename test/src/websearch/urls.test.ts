/** Site restriction and URL normalisation used for sites, count and de-duplication. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostAllowed, normaliseUrl, siteHost, siteQueries, withSites } from '../../../src/websearch/urls.ts';

describe('siteHost', () => {
  it('accepts host names, URLs, site: and wildcard forms', () => {
    assert.equal(siteHost('Example.COM'), 'example.com');
    assert.equal(siteHost('https://www.example.com/docs?q=1'), 'example.com');
    assert.equal(siteHost('*.example.org'), 'example.org');
    assert.equal(siteHost('site:docs.example.net'), 'docs.example.net');
  });
  it('rejects what is not a host', () => {
    for (const s of ['', '   ', 'not a host!', 'http://', 'a b.com']) assert.equal(siteHost(s), null, s);
  });
});

describe('hostAllowed', () => {
  it('allows the host and its subdomains only', () => {
    assert.equal(hostAllowed('https://example.com/x', ['example.com']), true);
    assert.equal(hostAllowed('https://docs.example.com/x', ['example.com']), true);
    assert.equal(hostAllowed('https://notexample.com/x', ['example.com']), false);
    assert.equal(hostAllowed('https://example.com.evil.org/x', ['example.com']), false);
    assert.equal(hostAllowed('not a url', ['example.com']), false);
    assert.equal(hostAllowed('https://anything.org/', []), true);
  });
});

describe('withSites', () => {
  it('adds one site: operator, or OR-ed operators for several', () => {
    assert.equal(withSites('q', []), 'q');
    assert.equal(withSites('q', ['a.com']), 'q site:a.com');
    assert.equal(withSites('q', ['a.com', 'b.org']), 'q (site:a.com OR site:b.org)');
  });
});

describe('siteQueries', () => {
  const limits = { chars: 40, words: 50 };
  it('keeps one query when the operators fit, and any query without limits', () => {
    assert.deepEqual(siteQueries('q', ['a.com', 'b.org'], limits), ['q (site:a.com OR site:b.org)']);
    assert.deepEqual(siteQueries('q'.repeat(100), ['a.com']), [`${'q'.repeat(100)} site:a.com`]);
  });
  it('splits operators in order over queries that fit, or drops them when they cannot fit', () => {
    assert.deepEqual(siteQueries('q', ['aaaa.com', 'bbbb.com', 'cccc.com'], limits), [
      'q (site:aaaa.com OR site:bbbb.com)',
      'q site:cccc.com',
    ]);
    assert.deepEqual(siteQueries('x'.repeat(35), ['a.com'], limits), ['x'.repeat(35)]);
    assert.deepEqual(siteQueries('q', ['a.com', 'b.com'], { chars: 400, words: 3 }), ['q site:a.com', 'q site:b.com']);
  });
});

describe('normaliseUrl', () => {
  it('treats scheme, www, default port, fragment, trailing slash, tracking and parameter order as the same page', () => {
    const same = [
      'https://www.example.com/a/?b=2&a=1#top',
      'http://example.com/a?a=1&b=2&utm_source=news',
      'https://EXAMPLE.com:443/a?a=1&b=2',
    ].map(normaliseUrl);
    assert.equal(new Set(same).size, 1, same.join(' | '));
    assert.notEqual(normaliseUrl('https://example.com/a?a=1'), normaliseUrl('https://example.com/a?a=2'));
    assert.notEqual(normaliseUrl('https://example.com:8080/a'), normaliseUrl('https://example.com/a'));
  });
});
