/**
 * XLSX extractor: cell values (shared strings, inline strings, numbers, booleans) row by
 * row, cells tab-separated, one `sheet` section per worksheet labelled with the sheet
 * name (the name is also the first line of the section). Page count = number of sheets.
 */
import { ExtractionError, checkAborted } from '../errors.ts';
import { TextBuilder } from '../text-builder.ts';
import type { Extractor } from '../types.ts';
import { attr, childrenNamed, findAll, parseXml, scanXml, textContent } from '../xml.ts';
import type { XmlElement } from '../xml.ts';
import { ZipReader } from '../zip-reader.ts';
import { readCoreProperties, readRelationships } from './ooxml-common.ts';

/** Text of a string item (si / is): t runs, without phonetic (rPh) hints. */
function stringItem(si: XmlElement): string {
  let s = '';
  for (const c of si.children) {
    if (typeof c === 'string') continue;
    if (c.local === 't') s += textContent(c.children);
    else if (c.local === 'r') for (const t of childrenNamed(c, 't')) s += textContent(t.children);
  }
  return s;
}

function readSharedStrings(zip: ZipReader): string[] {
  const xml = zip.readText('xl/sharedStrings.xml');
  if (!xml) return [];
  return findAll(parseXml(xml, 'xlsx shared strings'), 'si').map(stringItem);
}

const localOf = (tag: string) => tag.slice(tag.indexOf(':') + 1);
const CELL_TYPE = /(?:^|\s)t\s*=\s*["']([^"']*)["']/;

/**
 * Streams the rows of a worksheet part (no tree: sheets are the largest parts) and calls
 * `onRow` with the display values of the cells; formulas (<f>) and phonetic runs are ignored.
 */
function scanSheetRows(xml: string, what: string, shared: string[], onRow: (cells: string[]) => void): void {
  let cells: string[] = [];
  let type = '';
  let value = '';
  let inCell = false;
  let collecting = false;
  let phonetic = 0;
  const finishCell = () => {
    let v = value;
    if (type === 's') v = shared[Number(value)] ?? '';
    else if (type === 'b') v = value === '1' ? 'TRUE' : 'FALSE';
    cells.push(v.trim());
    inCell = false;
  };
  scanXml(xml, what, {
    open(tag, attrText, selfClosing) {
      const local = localOf(tag);
      if (local === 'row') {
        cells = [];
        if (selfClosing) onRow(cells);
      } else if (local === 'c') {
        type = CELL_TYPE.exec(attrText)?.[1] ?? '';
        value = '';
        inCell = true;
        if (selfClosing) finishCell();
      } else if (local === 'rPh' && !selfClosing) phonetic++;
      else if ((local === 'v' || local === 't') && inCell && phonetic === 0 && !selfClosing) collecting = true;
    },
    close(tag) {
      const local = localOf(tag);
      if (local === 'v' || local === 't') collecting = false;
      else if (local === 'rPh') phonetic--;
      else if (local === 'c' && inCell) finishCell();
      else if (local === 'row') onRow(cells);
    },
    text(t) {
      if (collecting) value += t;
    },
  });
}

export const extractXlsx: Extractor = async (input, ctx) => {
  const zip = new ZipReader(input, ctx.limits, ctx.budget);
  const wbXml = zip.readText('xl/workbook.xml');
  if (!wbXml) throw new ExtractionError('CORRUPT', 'xlsx: xl/workbook.xml is missing');
  const rels = readRelationships(zip, 'xl/workbook.xml');
  const sheets = findAll(parseXml(wbXml, 'xlsx workbook'), 'sheet').map((s) => ({
    name: attr(s, 'name') ?? '',
    part: rels.get(attr(s, 'id') ?? '')?.target,
  }));
  const shared = readSharedStrings(zip);
  const b = new TextBuilder(ctx.limits.maxOutputChars);
  for (const sheet of sheets) {
    checkAborted(ctx.signal);
    const xml = sheet.part ? zip.readText(sheet.part) : null;
    if (xml === null) continue; // chart sheets and dangling references carry no cells
    b.startSection('sheet', sheet.name);
    b.append(sheet.name);
    scanSheetRows(xml, `xlsx ${sheet.part}`, shared, (cells) => {
      while (cells.length && !cells[cells.length - 1]) cells.pop();
      if (cells.length) b.append('\n' + cells.join('\t'));
    });
    if (b.truncated) break;
  }
  const props = readCoreProperties(zip);
  return b.finish({ title: props.title, author: props.author, pageCount: sheets.length });
};
