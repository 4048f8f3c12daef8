/**
 * windows-1252 bytes 0x80-0x9F (euro sign, typographic quotes, dashes, apostrophe) decode to
 * their real characters, not to C1 control characters, in every extractor that reads legacy
 * 8-bit text: plain text without BOM, declared ISO-8859-1 (an alias of windows-1252), e-mail
 * bodies and headers, HTML with a <meta charset>, and RTF \'hh escapes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractInline } from '../../extractors/index.ts';

const latin1 = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
/** 0x84 „ 0x93 " 0x80 € 0x96 – 0x92 ’ in windows-1252. */
const RAW = 'Gr\xfc\xdfe \x84Angebot\x93: 10 \x80 \x96 Stra\xdfe, it\x92s';
const EXPECTED = 'Grüße „Angebot“: 10 € – Straße, it’s';
const C1 = /[\u0080-\u009f]/;

describe('windows-1252 text keeps the characters of bytes 0x80-0x9F', () => {
  it('plain text without BOM falls back to windows-1252', async () => {
    const e = await extractInline(latin1(RAW), { mediaType: 'text/plain' });
    assert.equal(e.text, EXPECTED);
  });

  it('plain text declared as charset=iso-8859-1', async () => {
    const e = await extractInline(latin1(RAW), { mediaType: 'text/plain; charset=iso-8859-1' });
    assert.equal(e.text, EXPECTED);
  });

  it('e-mail: windows-1252 quoted-printable body and Q-encoded subject', async () => {
    const eml = [
      'From: a@example.com',
      'Subject: =?windows-1252?Q?=84Angebot=93_=80?=',
      'Content-Type: text/plain; charset=windows-1252',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Gr=FC=DFe =84Angebot=93: 10 =80 =96 Stra=DFe, it=92s',
    ].join('\r\n');
    const e = await extractInline(latin1(eml), { mediaType: 'message/rfc822' });
    assert.equal(e.title, '„Angebot“ €');
    assert.ok(e.text.includes(EXPECTED), e.text);
    assert.doesNotMatch(e.text, C1);
  });

  it('HTML with <meta charset="windows-1252">', async () => {
    const html = `<html><head><meta charset="windows-1252"><title>\x84Titel\x93</title></head><body><p>${RAW}</p></body></html>`;
    const e = await extractInline(latin1(html), { mediaType: 'text/html' });
    assert.equal(e.title, '„Titel“');
    assert.equal(e.text, EXPECTED);
  });

  it("RTF \\'hh escapes with \\ansicpg1252", async () => {
    const rtf = String.raw`{\rtf1\ansi\ansicpg1252 Gr\'fc\'dfe \'84Angebot\'93: 10 \'80 \'96 Stra\'dfe, it\'92s\par}`;
    const e = await extractInline(latin1(rtf), { mediaType: 'application/rtf' });
    assert.equal(e.text, EXPECTED);
  });
});
