/**
 * Apple Mail and other clients send attachments such as PDFs with
 * `Content-Disposition: inline; filename=...`; their text is extracted like that of
 * `attachment` parts (inline images stay metadata-free and are skipped).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { extractInline } from '../../extractors/index.ts';

const pdf = readFileSync(new URL('./fixtures/sample.pdf', import.meta.url));

describe('e-mail inline-disposed attachments', () => {
  it('an inline PDF with a file name is extracted as a part', async () => {
    const plain = await extractInline(new Uint8Array(pdf), { mediaType: 'application/pdf' });
    const eml = [
      'From: a@example.com',
      'Subject: Rechnung',
      'Content-Type: multipart/mixed; boundary="Apple-Mail=_1"',
      '',
      '--Apple-Mail=_1',
      'Content-Type: text/plain; charset=us-ascii',
      '',
      'Anbei die Rechnung.',
      '--Apple-Mail=_1',
      'Content-Type: application/pdf; name="Rechnung.pdf"',
      'Content-Disposition: inline; filename="Rechnung.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      ...(pdf.toString('base64').match(/.{1,76}/g) ?? []),
      '--Apple-Mail=_1',
      'Content-Type: image/png; name="logo.png"',
      'Content-Disposition: inline; filename="logo.png"',
      'Content-Transfer-Encoding: base64',
      '',
      'iVBORw0KGgo=',
      '--Apple-Mail=_1--',
    ].join('\r\n');
    const e = await extractInline(new Uint8Array(Buffer.from(eml, 'latin1')), { mediaType: 'message/rfc822' });
    assert.equal(e.sections.length, 1, JSON.stringify(e.sections));
    assert.equal(e.sections[0].label, 'Rechnung.pdf');
    const firstLine = plain.text.split('\n')[0];
    assert.ok(firstLine && e.text.includes(firstLine), e.text);
  });
});
