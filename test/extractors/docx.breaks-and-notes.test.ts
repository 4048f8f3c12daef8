/**
 * DOCX text that a reader sees must be searchable: words around a manual line break
 * (Shift+Enter, <w:br/>) or a page break stay separate words, and footnote and endnote
 * texts are extracted.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractInline } from '../../extractors/index.ts';
import { writeZip } from './fixtures/zip-writer.ts';

const W =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const run = (t: string) => `<w:r><w:t xml:space="preserve">${t}</w:t></w:r>`;
const rels = (items: [string, string, string][]) =>
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  items.map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`).join('') +
  '</Relationships>';

function docx(
  body: string,
  extra: { name: string; data: string }[] = [],
  docRels: [string, string, string][] = [],
): Uint8Array {
  return writeZip([
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>',
    },
    { name: '_rels/.rels', data: rels([['rId1', 'officeDocument', 'word/document.xml']]) },
    {
      name: 'word/document.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${body}</w:body></w:document>`,
    },
    { name: 'word/_rels/document.xml.rels', data: rels(docRels) },
    ...extra,
  ]);
}

describe('DOCX line breaks and notes', () => {
  it('a manual line break or page break separates words', async () => {
    const e = await extractInline(
      docx(
        `<w:p>${run('Musterstraße 1')}<w:r><w:br/></w:r>${run('80331 München')}<w:r><w:br w:type="page"/></w:r>${run('Anlage')}</w:p>`,
      ),
      { mediaType: DOCX },
    );
    assert.match(e.text, /Musterstraße 1\s+80331 München\s+Anlage/, JSON.stringify(e.text));
  });

  it('footnote and endnote texts are extracted', async () => {
    const notes = (kind: string, text: string) =>
      `<?xml version="1.0" encoding="UTF-8"?><w:${kind}s ${W}>` +
      `<w:${kind} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:${kind}>` +
      `<w:${kind} w:id="1"><w:p>${run(text)}</w:p></w:${kind}></w:${kind}s>`;
    const e = await extractInline(
      docx(
        `<w:p>${run('Vertragsklausel')}<w:r><w:footnoteReference w:id="1"/></w:r><w:r><w:endnoteReference w:id="1"/></w:r></w:p>`,
        [
          { name: 'word/footnotes.xml', data: notes('footnote', 'Gilt nur für Bestandskunden') },
          { name: 'word/endnotes.xml', data: notes('endnote', 'Stand Januar') },
        ],
        [
          ['rId5', 'footnotes', 'footnotes.xml'],
          ['rId6', 'endnotes', 'endnotes.xml'],
        ],
      ),
      { mediaType: DOCX },
    );
    assert.match(e.text, /Vertragsklausel/);
    assert.match(e.text, /Gilt nur für Bestandskunden/, JSON.stringify(e.text));
    assert.match(e.text, /Stand Januar/);
  });
});
