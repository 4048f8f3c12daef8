/**
 * The README's reference tables match the code they describe: the environment variables
 * (names and literal defaults) against src/config.ts's EnvSchema, the file suffix table against
 * FILE_TYPE_TABLE (src/documents/suffix.ts), and the document file_type -> search file_type table
 * against src/documents/file-types.ts. The comparison functions are also run on synthetic tables with a
 * planted mismatch, so this test cannot pass by comparing nothing.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { EnvSchema } from '../src/config.ts';
import { DOCUMENT_TO_SEARCH_FILE_TYPE } from '../src/documents/file-types.ts';
import { FILE_TYPE_TABLE, type FileTypeRow } from '../src/documents/suffix.ts';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** Cells of a Markdown table row (`\|` inside a cell is a literal bar). */
function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

/** Body rows of the first table whose header row has exactly these cells; throws when there is none. */
function tableRows(markdown: string, header: readonly string[]): string[][] {
  const lines = markdown.split('\n');
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i].startsWith('|') || cells(lines[i]).join('\u0000') !== header.join('\u0000')) continue;
    if (!/^\|(\s*:?-+:?\s*\|)+\s*$/.test(lines[i + 1])) continue;
    const rows: string[][] = [];
    for (let j = i + 2; j < lines.length && lines[j].startsWith('|'); j++) rows.push(cells(lines[j]));
    return rows;
  }
  throw new Error(`no table with header | ${header.join(' | ')} |`);
}

const literal = (cell: string): string | undefined => /^`([^`]*)`$/.exec(cell)?.[1];
const list = (cell: string): string[] => (cell === '' ? [] : cell.split(',').map((s) => s.trim()));

/**
 * Differences between the README's environment table and the schema: every variable documented
 * once and in the schema, and a default shown as one literal exactly when the schema has that default.
 */
function envTableMismatches(rows: string[][], defaults: ReadonlyMap<string, string | undefined>): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [nameCell, defaultCell] of rows) {
    const name = literal(nameCell);
    if (name === undefined) {
      problems.push(`variable cell ${nameCell} is not one literal`);
      continue;
    }
    if (seen.has(name)) problems.push(`${name} is documented twice`);
    seen.add(name);
    if (!defaults.has(name)) {
      problems.push(`${name} is documented but not in the schema`);
      continue;
    }
    const code = defaults.get(name);
    const shown = literal(defaultCell);
    if (code === undefined && shown !== undefined) problems.push(`${name}: README default ${shown}, schema has none`);
    if (code !== undefined && shown !== code) problems.push(`${name}: README default ${defaultCell}, schema ${code}`);
  }
  for (const name of defaults.keys()) if (!seen.has(name)) problems.push(`${name} is in the schema but not documented`);
  return problems;
}

/**
 * The README's suffix table, one row per search file type, flattened into code rows in order. A cell
 * lists its suffixes separated by `; `, each as `` `suffix` media/type, other/type (also `ext`, `ext`) ``.
 */
function suffixEntries(rows: string[][]): FileTypeRow[] | string {
  const out: FileTypeRow[] = [];
  for (const [type, cell] of rows) {
    for (const entry of cell.split('; ')) {
      const m = /^`([^`]+)` ([^()]+?)(?: \(also ([^)]+)\))?$/.exec(entry);
      if (!m) return `entry ${JSON.stringify(entry)} of ${type} is not \`suffix\` media types (also extensions)`;
      const extensions = m[3] ? list(m[3]).map((e) => literal(e) ?? `not a literal: ${e}`) : undefined;
      out.push({
        suffix: m[1],
        searchFileType: type as FileTypeRow['searchFileType'],
        mediaTypes: list(m[2]),
        ...(extensions ? { extensions } : {}),
      });
    }
  }
  return out;
}

/** Differences between the README's suffix table and the code's table, entry by entry and in order. */
function fileTypeTableMismatches(rows: string[][], table: readonly FileTypeRow[]): string[] {
  const entries = suffixEntries(rows);
  if (typeof entries === 'string') return [entries];
  const problems: string[] = [];
  const show = (r: FileTypeRow) =>
    [r.suffix, r.searchFileType, r.mediaTypes.join(', '), (r.extensions ?? []).join(', ')].join(' | ');
  for (let i = 0; i < Math.max(entries.length, table.length); i++) {
    const [got, want] = [entries[i], table[i]];
    if (!got || !want) {
      problems.push(`entry ${i + 1}: ${got ? `README ${got.suffix}` : `code ${want.suffix}`} has no counterpart`);
    } else if (show(got) !== show(want)) {
      problems.push(`entry ${i + 1}: README | ${show(got)} |, code | ${show(want)} |`);
    }
  }
  return problems;
}

/**
 * Differences between the README's document-type table and the mapping: every document type in
 * exactly one row, with its search type, or a "from the media type" row when the mapping defers.
 */
function documentTypeMismatches(rows: string[][], mapping: Readonly<Record<string, string | null>>): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [typesCell, searchCell] of rows) {
    for (const type of list(typesCell)) {
      if (seen.has(type)) problems.push(`${type} is documented twice`);
      seen.add(type);
      if (!(type in mapping)) {
        problems.push(`${type} is documented but not a document file_type`);
        continue;
      }
      const code = mapping[type];
      const ok = code === null ? searchCell.startsWith('from the media type') : searchCell === code;
      if (!ok) problems.push(`${type}: README ${searchCell}, code ${code ?? 'from the media type'}`);
    }
  }
  for (const type of Object.keys(mapping)) if (!seen.has(type)) problems.push(`${type} is not documented`);
  return problems;
}

const ENV_HEADER = ['Variable', 'Default', 'Meaning'];
const SUFFIX_HEADER = ['Search file type', 'Suffix, media types (other extensions)'];
const DOC_TYPE_HEADER = ['Document `file_type`', 'Search `file_type`'];

const schemaDefaults = new Map(
  Object.entries(EnvSchema.entries).map(([name, schema]) => {
    const d = v.getDefault(schema as v.GenericSchema) as unknown;
    return [name, d === undefined ? undefined : String(d)] as const;
  }),
);

describe('README tables match the code', () => {
  it('the environment variables: every schema key, with its default', () => {
    const rows = tableRows(README, ENV_HEADER);
    assert.ok(rows.length >= 30, `only ${rows.length} rows`);
    assert.deepEqual(envTableMismatches(rows, schemaDefaults), []);
  });

  it('the file suffix table: FILE_TYPE_TABLE entry by entry', () => {
    assert.deepEqual(fileTypeTableMismatches(tableRows(README, SUFFIX_HEADER), FILE_TYPE_TABLE), []);
  });

  it('the document file_type table: DOCUMENT_TO_SEARCH_FILE_TYPE', () => {
    assert.deepEqual(documentTypeMismatches(tableRows(README, DOC_TYPE_HEADER), DOCUMENT_TO_SEARCH_FILE_TYPE), []);
  });
});

describe('the comparisons find planted mismatches', () => {
  const doc = [
    '| Variable | Default | Meaning |',
    '|---|---|---|',
    '| `PORT` | `8080` | port |',
    '| `HOST` | `0.0.0.0` | interface |',
    '| `TOKEN` | unset | secret |',
    '| `EXTRA` | unset | not in code |',
    '',
  ].join('\n');

  it('reads a table by its header and stops at its end', () => {
    assert.deepEqual(tableRows(doc, ENV_HEADER).length, 4);
    assert.deepEqual(tableRows('| A \\| B | C |\n|---|---|\n| x \\| y | z |\n', ['A | B', 'C']), [['x | y', 'z']]);
    assert.throws(() => tableRows(doc, ['Variable', 'Meaning']), /no table/);
  });

  it('environment: a wrong default, an undocumented and an unknown variable', () => {
    const code = new Map<string, string | undefined>([
      ['PORT', '8080'],
      ['HOST', '127.0.0.1'],
      ['TOKEN', undefined],
      ['MISSING', '1'],
    ]);
    assert.deepEqual(envTableMismatches(tableRows(doc, ENV_HEADER), code), [
      'HOST: README default `0.0.0.0`, schema 127.0.0.1',
      'EXTRA is documented but not in the schema',
      'MISSING is in the schema but not documented',
    ]);
    const undocumentedDefault = new Map(code).set('TOKEN', 'x');
    assert.ok(
      envTableMismatches(tableRows(doc, ENV_HEADER), undocumentedDefault).includes(
        'TOKEN: README default unset, schema x',
      ),
    );
  });

  it('file types: a changed media type, a missing entry, a malformed entry', () => {
    const rows = [
      ['pdf', '`pdf` application/pdf'],
      ['word', '`docx` application/msword (also `dot`)'],
    ];
    const code: FileTypeRow[] = [
      { suffix: 'pdf', searchFileType: 'pdf', mediaTypes: ['application/pdf'] },
      { suffix: 'docx', searchFileType: 'word', mediaTypes: ['application/x-docx'], extensions: ['dot'] },
      { suffix: 'txt', searchFileType: 'txt', mediaTypes: ['text/plain'] },
    ];
    assert.deepEqual(fileTypeTableMismatches(rows, code), [
      'entry 2: README | docx | word | application/msword | dot |, code | docx | word | application/x-docx | dot |',
      'entry 3: code txt has no counterpart',
    ]);
    assert.deepEqual(fileTypeTableMismatches(rows.slice(0, 1), code.slice(0, 1)), []);
    assert.match(fileTypeTableMismatches([['pdf', 'pdf application/pdf']], code)[0], /is not `suffix`/);
  });

  it('document types: a wrong mapping, a deferred type shown as fixed, an undocumented type', () => {
    const rows = [
      ['message, email', 'message'],
      ['file', 'pdf'],
    ];
    assert.deepEqual(documentTypeMismatches(rows, { message: 'message', email: 'email', file: null, wiki: 'wiki' }), [
      'email: README message, code email',
      'file: README pdf, code from the media type',
      'wiki is not documented',
    ]);
  });
});
