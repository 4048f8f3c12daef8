/**
 * Soft hyphens (U+00AD: Word's optional hyphen, HTML &shy;) are invisible inside a word. The
 * search tokenizer treats U+00AD as a separator, so the extracted text must not contain it:
 * "Silben&shy;trennung" has to stay the one word "Silbentrennung".
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractInline, extractMainContent } from '../../extractors/index.ts';
import { writeZip } from './fixtures/zip-writer.ts';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

describe('soft hyphens are removed from extracted text', () => {
  it('DOCX <w:softHyphen/>', async () => {
    const docx = writeZip([
      {
        name: '[Content_Types].xml',
        data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>',
      },
      {
        name: '_rels/.rels',
        data: `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
      },
      {
        name: 'word/document.xml',
        data: `<?xml version="1.0"?><w:document ${W}><w:body><w:p><w:r><w:t>Donau</w:t></w:r><w:r><w:softHyphen/></w:r><w:r><w:t>dampfschiff</w:t></w:r></w:p></w:body></w:document>`,
      },
    ]);
    const e = await extractInline(docx, {
      mediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    assert.equal(e.text, 'Donaudampfschiff');
  });

  it('HTML &shy; in a pushed document and its title', async () => {
    const html =
      '<html><head><title>Silben&shy;trennung</title></head><body><p>Silben&shy;trennung und Ge\u00adsch\u00e4fts\u00adbericht</p></body></html>';
    const e = await extractInline(new TextEncoder().encode(html), { mediaType: 'text/html' });
    assert.equal(e.title, 'Silbentrennung');
    assert.equal(e.text, 'Silbentrennung und Geschäftsbericht');
  });

  it('HTML &shy; in a crawled page (main content)', () => {
    const page = extractMainContent(
      '<html><head><title>Silben&shy;trennung</title></head><body><main><p>Silben&shy;trennung im Ge&shy;sch&auml;fts&shy;bericht</p></main></body></html>',
      10_000,
    );
    assert.equal(page.title, 'Silbentrennung');
    assert.equal(page.text, 'Silbentrennung im Geschäftsbericht');
  });
});
