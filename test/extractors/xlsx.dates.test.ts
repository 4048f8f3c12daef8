/**
 * XLSX date cells are stored as serial day numbers with a date number format (built-in
 * numFmtId 14-22 or a custom code such as dd/mm/yyyy); the text shows the date (ISO form),
 * not the serial number. Plain numbers stay as stored.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractInline } from '../../extractors/index.ts';
import { writeZip } from './fixtures/zip-writer.ts';

const S =
  'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function xlsx(sheetData: string, workbookPr = ''): Uint8Array {
  return writeZip([
    {
      name: 'xl/workbook.xml',
      data: `<?xml version="1.0"?><workbook ${S}>${workbookPr}<sheets><sheet name="Termine" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    },
    {
      name: 'xl/styles.xml',
      data:
        `<?xml version="1.0"?><styleSheet ${S}><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy;@"/></numFmts>` +
        '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164" applyNumberFormat="1"/><xf numFmtId="4" applyNumberFormat="1"/></cellXfs></styleSheet>',
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      data: `<?xml version="1.0"?><worksheet ${S}><sheetData>${sheetData}</sheetData></worksheet>`,
    },
  ]);
}
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('XLSX date cells', () => {
  it('built-in and custom date formats show the date, other numbers stay as stored', async () => {
    const e = await extractInline(
      xlsx(
        '<row r="1"><c r="A1" t="inlineStr"><is><t>Abgabe</t></is></c><c r="B1" s="1"><v>45292</v></c><c r="C1" s="2"><v>45000</v></c><c r="D1" s="3"><v>45292</v></c><c r="E1"><v>1234.5</v></c></row>',
      ),
      { mediaType: XLSX },
    );
    assert.equal(e.text, 'Termine\nAbgabe\t2024-01-01\t2023-03-15\t45292\t1234.5');
  });

  it('the 1904 date system is honoured', async () => {
    const e = await extractInline(
      xlsx('<row r="1"><c r="A1" s="1"><v>43830</v></c></row>', '<workbookPr date1904="1"/>'),
      { mediaType: XLSX },
    );
    assert.equal(e.text, 'Termine\n2024-01-01');
  });
});
