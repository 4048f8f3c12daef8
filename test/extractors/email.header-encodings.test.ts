/**
 * E-mail header encodings seen from real mailers: a UTF-8 character split across two adjacent
 * RFC 2047 encoded words (decoded together, RFC 2047 section 6.2 as mailers practise it), and
 * RFC 2231 parameter continuations (filename*0*, filename*1*) for long non-ASCII file names.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractInline } from '../../extractors/index.ts';

const eml = (lines: string[]) => new Uint8Array(Buffer.from(lines.join('\r\n'), 'latin1'));

describe('e-mail header encodings', () => {
  it('a UTF-8 sequence split across adjacent encoded words decodes to the character', async () => {
    const e = await extractInline(
      eml(['From: a@example.com', 'Subject: =?UTF-8?Q?Gr=C3?= =?UTF-8?Q?=BC=C3=9Fe_aus_K=C3=B6ln?=', '', 'Text']),
      { mediaType: 'message/rfc822' },
    );
    assert.equal(e.title, 'Grüße aus Köln');
  });

  it('a Base64 encoded word split inside a character (two B words) decodes to the character', async () => {
    const bytes = Buffer.from('Änderung', 'utf8'); // C3 84 ...
    const e = await extractInline(
      eml([
        'Subject: =?utf-8?B?' + bytes.subarray(0, 1).toString('base64') + '?=',
        ' =?utf-8?B?' + bytes.subarray(1).toString('base64') + '?=',
        '',
        'Text',
      ]),
      { mediaType: 'message/rfc822' },
    );
    assert.equal(e.title, 'Änderung');
  });

  it('an attachment file name given as RFC 2231 continuations is the part label', async () => {
    const e = await extractInline(
      eml([
        'Subject: Bericht',
        'Content-Type: multipart/mixed; boundary="m"',
        '',
        '--m',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Siehe Anhang.',
        '--m',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Disposition: attachment;',
        " filename*0*=UTF-8''Quartalsbericht%20f%C3%BCr%20das%20;",
        ' filename*1*=Gesch%C3%A4ftsjahr.txt',
        '',
        'Umsatz gestiegen',
        '--m--',
      ]),
      { mediaType: 'message/rfc822' },
    );
    assert.equal(e.sections.length, 1);
    assert.equal(e.sections[0].label, 'Quartalsbericht für das Geschäftsjahr.txt');
    assert.match(e.text, /Quartalsbericht für das Geschäftsjahr\.txt\nUmsatz gestiegen/);
  });

  it('an RFC 2231 file name outside Latin-1 (CJK) survives', async () => {
    const e = await extractInline(
      eml([
        'Subject: x',
        'Content-Type: multipart/mixed; boundary=m',
        '',
        '--m',
        'Content-Type: text/plain',
        "Content-Disposition: attachment; filename*=UTF-8''%E6%9D%B1%E4%BA%AC%20Bericht.txt",
        '',
        'Inhalt',
        '--m--',
      ]),
      { mediaType: 'message/rfc822' },
    );
    assert.equal(e.sections[0]?.label, '東京 Bericht.txt');
  });
});
