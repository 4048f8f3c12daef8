/**
 * Plain text and Markdown far over the output limit are decoded from their leading bytes only
 * (4 bytes a character at most), so a 100 MB text never becomes a 100M-character string in the
 * worker. The cut never splits a UTF-8 sequence (a split one would read as a stray byte and could
 * tip the charset guess to windows-1252), stays even for UTF-16, and what lies past it is never
 * read: bytes there that would change the charset guess change nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractInline } from '../../extractors/index.ts';

const LIMIT = 1000;
const limits = { maxOutputChars: LIMIT };
const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const join = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

describe('text over the output limit', () => {
  it('a UTF-8 sequence across the cut is not split, so the charset stays UTF-8', async () => {
    const head = 'Grüße ';
    const pad = 'a'.repeat(LIMIT * 4 + 4 - Buffer.byteLength(head) - 1); // '€' starts one byte before the cut
    const bytes = utf8(`${head}${pad}€${'b'.repeat(5000)}`);
    const e = await extractInline(bytes, { mediaType: 'text/plain', limits });
    assert.ok(e.text.startsWith('Grüße aaa'), e.text.slice(0, 20));
    assert.ok(e.text.length <= LIMIT);
  });

  it('bytes past the cut are never decoded: invalid UTF-8 there does not turn the text into windows-1252', async () => {
    const text = `Grüße aus München ${'Wort '.repeat(LIMIT)}`;
    const tail = new Uint8Array(LIMIT * 8).fill(0xff);
    const e = await extractInline(join(utf8(text), tail), { mediaType: 'text/markdown', limits });
    assert.ok(e.text.startsWith('Grüße aus München Wort'), e.text.slice(0, 30));
    const whole = await extractInline(join(utf8(text.slice(0, 40)), tail), { mediaType: 'text/plain', limits });
    assert.doesNotMatch(whole.text, /Grüße/, 'under the bound the whole input still decides the charset');
  });

  it('UTF-16 with a byte-order mark is cut on a code unit', async () => {
    const body = Buffer.from(`Straße ${'x'.repeat(LIMIT * 3)}`, 'utf16le');
    const e = await extractInline(join(new Uint8Array([0xff, 0xfe]), body), { mediaType: 'text/plain', limits });
    assert.ok(e.text.startsWith('Straße xxx'), e.text.slice(0, 20));
    assert.doesNotMatch(e.text, /\ufffd/);
  });
});
