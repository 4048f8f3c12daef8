/**
 * Markdown title: the first level-1 heading in either syntax, ATX (`# Title`) or setext
 * (`Title` underlined with `===`), whichever comes first.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractInline } from '../../extractors/index.ts';

const md = (s: string) => extractInline(new TextEncoder().encode(s), { mediaType: 'text/markdown' });

describe('Markdown title', () => {
  it('a setext level-1 heading is the title', async () => {
    assert.equal(
      (await md('Betriebshandbuch Größenplanung\n==============================\n\nText.\n\n# Kapitel 1\n')).title,
      'Betriebshandbuch Größenplanung',
    );
  });

  it('an ATX heading before a setext heading wins', async () => {
    assert.equal((await md('# Erster Titel\n\nZweiter\n===\n')).title, 'Erster Titel');
  });

  it('text without a heading has no title', async () => {
    assert.equal((await md('Nur Text ohne Überschrift.\n')).title, undefined);
  });
});
