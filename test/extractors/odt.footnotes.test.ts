/**
 * ODT footnotes: the citation mark (text:note-citation, "1") is not glued to the word it
 * follows, and the footnote body is still extracted.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractInline } from '../../extractors/index.ts';
import { writeZip } from './fixtures/zip-writer.ts';

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';

describe('ODT footnotes', () => {
  it('keeps the referencing word intact and extracts the note text', async () => {
    const content =
      `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS}><office:body><office:text>` +
      '<text:p>Die Belegstelle<text:note text:id="ftn1" text:note-class="footnote"><text:note-citation>1</text:note-citation>' +
      '<text:note-body><text:p>Quelle: Müller 2020</text:p></text:note-body></text:note> folgt.</text:p>' +
      '</office:text></office:body></office:document-content>';
    const odt = writeZip([
      { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text', compress: false },
      { name: 'content.xml', data: content },
    ]);
    const e = await extractInline(odt, { mediaType: 'application/vnd.oasis.opendocument.text' });
    assert.match(e.text, /\bBelegstelle\b/, e.text);
    assert.match(e.text, /Quelle: Müller 2020/);
  });
});
