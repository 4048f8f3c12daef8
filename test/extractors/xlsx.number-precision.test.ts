/**
 * XLSX numbers are stored with up to 17 significant digits (binary floating point, e.g. the
 * cached result of =0.1+0.2 is 0.30000000000000004); Excel shows at most 15 significant digits,
 * and so does the extracted text. Integers and short decimals stay as stored.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractInline } from '../../extractors/index.ts';
import { writeZip } from './fixtures/zip-writer.ts';

const S =
  'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

describe('XLSX number precision', () => {
  it('floating-point noise is rounded to 15 significant digits', async () => {
    const cells = [
      '0.30000000000000004',
      '3.0000000000000004',
      '1.0000000000000001E-3',
      '1234.5',
      '4006381333931',
      '42',
    ];
    const row = cells
      .map(
        (v, i) =>
          `<c r="${String.fromCharCode(65 + i)}1"${i === 0 ? '' : ' t="n"'}>${i === 0 ? '<f>0.1+0.2</f>' : ''}<v>${v}</v></c>`,
      )
      .join('');
    const xlsx = writeZip([
      {
        name: 'xl/workbook.xml',
        data: `<?xml version="1.0"?><workbook ${S}><sheets><sheet name="Zahlen" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      },
      {
        name: 'xl/worksheets/sheet1.xml',
        data: `<?xml version="1.0"?><worksheet ${S}><sheetData><row r="1">${row}</row></sheetData></worksheet>`,
      },
    ]);
    const e = await extractInline(xlsx, {
      mediaType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    assert.equal(e.text, 'Zahlen\n0.3\t3\t0.001\t1234.5\t4006381333931\t42');
  });
});
