/**
 * XLSX extractor: cell values (shared strings, inline strings, numbers to 15 significant
 * digits, booleans, dates in ISO form for date-formatted serial numbers) row by row, cells
 * tab-separated, one `sheet` section per worksheet labelled with the sheet name (the name is
 * also the first line of the section). Page count = number of sheets.
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
const CELL_STYLE = /(?:^|\s)s\s*=\s*["'](\d+)["']/;

/** Built-in date and time number formats (ECMA-376 18.8.30, with the East Asian ones). */
const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56,
  57, 58,
]);
/** A custom format code is a date/time format when d, m, y, h or s remain outside quotes, escapes and [colour/locale] brackets. */
const isDateCode = (code: string) => /[dmyhs]/i.test(code.replace(/"[^"]*"|\\.|\[[^\]]*\]|General/gi, ''));

/** Per cell style index (cellXfs order): whether its number format shows a date or time. */
function readDateStyles(zip: ZipReader, stylesPart: string): boolean[] {
  const xml = zip.readText(stylesPart);
  if (!xml) return [];
  const tree = parseXml(xml, 'xlsx styles');
  const custom = new Map(
    findAll(tree, 'numFmt').map((f) => [Number(attr(f, 'numFmtId')), attr(f, 'formatCode') ?? ''] as const),
  );
  const cellXfs = findAll(tree, 'cellXfs')[0];
  return (cellXfs ? childrenNamed(cellXfs, 'xf') : []).map((xf) => {
    const id = Number(attr(xf, 'numFmtId') ?? 0);
    return custom.has(id) ? isDateCode(custom.get(id)!) : BUILTIN_DATE_FORMATS.has(id);
  });
}

/** A stored number with at most 15 significant digits, as Excel shows it (0.30000000000000004 is 0.3). */
export function formatNumber(value: string): string {
  const n = Number(value);
  if (!Number.isFinite(n)) return value;
  return String(Number(n.toPrecision(15)));
}

/** A date serial number as ISO date, time or both; values outside 1900-9999 stay as stored. */
export function formatSerialDate(value: string, date1904: boolean): string {
  let serial = Number(value);
  if (!Number.isFinite(serial) || serial < 0 || serial > 2958465) return value;
  if (!date1904 && serial < 60) serial += 1; // Excel's fictitious 1900-02-29
  const iso = new Date(Math.round((serial + (date1904 ? 1462 : 0) - 25569) * 86_400_000)).toISOString();
  if (serial < 1) return iso.slice(11, 19);
  return Number.isInteger(serial) ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/**
 * Streams the rows of a worksheet part (no tree: sheets are the largest parts) and calls
 * `onRow` with the display values of the cells; formulas (<f>) and phonetic runs are ignored.
 */
function scanSheetRows(
  xml: string,
  what: string,
  shared: string[],
  dates: { styles: boolean[]; date1904: boolean },
  onRow: (cells: string[]) => void,
): void {
  let cells: string[] = [];
  let type = '';
  let style = 0;
  let value = '';
  let inCell = false;
  let collecting = false;
  let phonetic = 0;
  const finishCell = () => {
    let v = value;
    if (type === 's') v = shared[Number(value)] ?? '';
    else if (type === 'b') v = value === '1' ? 'TRUE' : 'FALSE';
    else if ((type === '' || type === 'n') && value.trim()) {
      v = dates.styles[style] ? formatSerialDate(value.trim(), dates.date1904) : formatNumber(value.trim());
    }
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
        style = Number(CELL_STYLE.exec(attrText)?.[1] ?? 0);
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
  const wbTree = parseXml(wbXml, 'xlsx workbook');
  const workbookPr = findAll(wbTree, 'workbookPr')[0];
  const date1904 = ['1', 'true'].includes(workbookPr ? (attr(workbookPr, 'date1904') ?? '') : '');
  const stylesPart = [...rels.values()].find((r) => r.type.endsWith('/styles'))?.target ?? 'xl/styles.xml';
  const dates = { styles: readDateStyles(zip, stylesPart), date1904 };
  const sheets = findAll(wbTree, 'sheet').map((s) => ({
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
    scanSheetRows(xml, `xlsx ${sheet.part}`, shared, dates, (cells) => {
      while (cells.length && !cells[cells.length - 1]) cells.pop();
      if (cells.length) b.append('\n' + cells.join('\t'));
    });
    if (b.truncated) break;
  }
  const props = readCoreProperties(zip);
  return b.finish({ title: props.title, author: props.author, pageCount: sheets.length });
};
