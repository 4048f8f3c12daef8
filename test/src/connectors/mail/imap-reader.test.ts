/**
 * The IMAP response reader and syntax helpers: responses split across chunks at any byte, literals
 * inside responses, an oversize literal read past without being kept, an over-long line refused,
 * tokens (lists, quoted strings with escapes, NIL, sections in brackets), command arguments as
 * quoted strings or literals, sequence sets, INTERNALDATE and modified UTF-7 mailbox names.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTokens, ResponseReader, type RawResponse } from '../../../../src/connectors/mail/imap-reader.ts';
import {
  decodeMailboxName,
  imapDate,
  quoteOrLiteral,
  sequenceSet,
} from '../../../../src/connectors/mail/imap-syntax.ts';

function readAll(bytes: Buffer, chunkSize: number, maxLiteralBytes = 1000) {
  const out: RawResponse[] = [];
  const errors: Error[] = [];
  const r = new ResponseReader(
    { maxLineBytes: 200, maxLiteralBytes },
    (x) => out.push(x),
    (e) => errors.push(e),
  );
  for (let i = 0; i < bytes.length; i += chunkSize) r.push(bytes.subarray(i, i + chunkSize));
  return { out, errors };
}

const STREAM = Buffer.from(
  '* 1 FETCH (UID 7 BODY[] {12}\r\nhello\r\nworld FLAGS (\\Seen))\r\n' +
    '* LIST (\\HasNoChildren) "." "Entw&APw-rfe \\"x\\""\r\n' +
    'A1 OK done\r\n',
);

describe('IMAP response reader', () => {
  it('gives the same responses whatever the chunking', () => {
    for (const size of [1, 2, 3, 7, 1000]) {
      const { out, errors } = readAll(STREAM, size);
      assert.deepEqual(errors, []);
      assert.equal(out.length, 3, `chunks of ${size}`);
      assert.deepEqual(parseTokens(out[0]), [
        '*',
        '1',
        'FETCH',
        ['UID', '7', 'BODY[]', new Uint8Array(Buffer.from('hello\r\nworld')), 'FLAGS', ['\\Seen']],
      ]);
      assert.deepEqual(parseTokens(out[1]), ['*', 'LIST', ['\\HasNoChildren'], '.', 'Entw&APw-rfe "x"']);
      assert.equal(out[2].texts[0], 'A1 OK done');
    }
  });

  it('reads past a literal over the limit without keeping it', () => {
    const big = Buffer.concat([
      Buffer.from('* 2 FETCH (UID 9 BODY[] {5000}\r\n'),
      Buffer.alloc(5000, 'x'),
      Buffer.from(')\r\nA2 OK\r\n'),
    ]);
    const { out, errors } = readAll(big, 333, 1000);
    assert.deepEqual(errors, []);
    assert.deepEqual(parseTokens(out[0])[3], ['UID', '9', 'BODY[]', { oversize: 5000 }]);
    assert.equal(out[1].texts[0], 'A2 OK');
  });

  it('refuses a line longer than the limit', () => {
    const { out, errors } = readAll(Buffer.from(`* ${'x'.repeat(300)}\r\n`), 50);
    assert.equal(out.length, 0);
    assert.match(errors[0].message, /longer than 200 bytes/);
  });

  it('keeps a bracketed section with spaces and parentheses as one atom, and reads NIL', () => {
    const { out } = readAll(Buffer.from('* 3 FETCH (BODY[HEADER.FIELDS (SUBJECT FROM)] NIL UID 4)\r\n'), 1000);
    assert.deepEqual(parseTokens(out[0])[3], ['BODY[HEADER.FIELDS (SUBJECT FROM)]', null, 'UID', '4']);
  });
});

describe('IMAP syntax', () => {
  it('quotes printable arguments and sends others as literals', () => {
    const text = (bufs: Buffer[]) => bufs.map((b) => b.toString('utf8'));
    assert.deepEqual(text(quoteOrLiteral('A1', ['LOGIN ', 'ann', ' ', 'pa"ss\\'], false)), [
      'A1 LOGIN "ann" "pa\\"ss\\\\"\r\n',
    ]);
    assert.deepEqual(text(quoteOrLiteral('A2', ['LOGIN ', 'ann', ' ', 'pässwörd'], true)), [
      'A2 LOGIN "ann" {10+}\r\npässwörd\r\n',
    ]);
    assert.deepEqual(text(quoteOrLiteral('A3', ['EXAMINE ', 'a\r\nb'], false)), ['A3 EXAMINE {4}\r\n', 'a\r\nb\r\n']);
  });

  it('compresses UIDs into a sequence set', () => {
    assert.equal(sequenceSet([1, 2, 3, 5, 7, 8]), '1:3,5,7:8');
    assert.equal(sequenceSet([42]), '42');
  });

  it('reads INTERNALDATE with its zone', () => {
    assert.equal(new Date(imapDate('17-Jul-1996 02:44:25 -0700')).toISOString(), '1996-07-17T09:44:25.000Z');
    assert.equal(new Date(imapDate(' 1-Jan-2026 00:00:00 +0100')).toISOString(), '2025-12-31T23:00:00.000Z');
    assert.ok(Number.isNaN(imapDate('yesterday')));
  });

  it('decodes modified UTF-7 mailbox names', () => {
    assert.equal(decodeMailboxName('Entw&APw-rfe'), 'Entwürfe');
    assert.equal(decodeMailboxName('Tom &- Jerry'), 'Tom & Jerry');
    assert.equal(decodeMailboxName('&ZeVnLIqe-'), '日本語');
  });
});
