/**
 * PPTX slides come out in presentation order (p:sldIdLst in ppt/presentation.xml), not in
 * slide file-name order: a slide moved in PowerPoint keeps its slideN.xml name.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractInline } from '../../extractors/index.ts';
import { writeZip } from './fixtures/zip-writer.ts';

const P =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const slide = (t: string) =>
  `<?xml version="1.0"?><p:sld ${P}><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>${t}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;

describe('PPTX slide order', () => {
  it('follows p:sldIdLst (every p:sldId also has a numeric id attribute)', async () => {
    // slide2.xml was moved to the front: it is listed first.
    const pres = `<?xml version="1.0"?><p:presentation ${P}><p:sldIdLst><p:sldId id="257" r:id="rId3"/><p:sldId id="256" r:id="rId2"/></p:sldIdLst></p:presentation>`;
    const rels =
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId2" Type="${REL}/slide" Target="slides/slide1.xml"/><Relationship Id="rId3" Type="${REL}/slide" Target="slides/slide2.xml"/></Relationships>`;
    const pptx = writeZip([
      { name: 'ppt/presentation.xml', data: pres },
      { name: 'ppt/_rels/presentation.xml.rels', data: rels },
      { name: 'ppt/slides/slide1.xml', data: slide('Zusammenfassung') },
      { name: 'ppt/slides/slide2.xml', data: slide('Agenda') },
    ]);
    const e = await extractInline(pptx, {
      mediaType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    });
    assert.equal(e.text, 'Agenda\n\nZusammenfassung');
    assert.equal(e.text.slice(e.sections[0].start, e.sections[0].end), 'Agenda');
  });
});
