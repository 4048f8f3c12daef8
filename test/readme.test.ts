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

/** Differences between the README's suffix table and the code's table, row by row and in order. */
function fileTypeTableMismatches(rows: string[][], table: readonly FileTypeRow[]): string[] {
  const problems: string[] = [];
  const n = Math.max(rows.length, table.length);
  for (let i = 0; i < n; i++) {
    const row = rows[i];
    const code = table[i];
    if (!row || !code) {
      problems.push(`row ${i + 1}: ${row ? `README ${row[0]}` : `code ${code.suffix}`} has no counterpart`);
      continue;
    }
    const [suffix, type, media, extensions] = row;
    const want = [code.suffix, code.searchFileType, code.mediaTypes.join(', '), (code.extensions ?? []).join(', ')];
    const got = [suffix, type, list(media).join(', '), list(extensions).join(', ')];
    if (got.join('\u0000') !== want.join('\u0000'))
      problems.push(`row ${i + 1}: README | ${got.join(' | ')} |, code | ${want.join(' | ')} |`);
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
const SUFFIX_HEADER = ['Suffix', 'Search file type', 'Media types', 'Other extensions'];
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

  it('the file suffix table: FILE_TYPE_TABLE row by row', () => {
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

  it('file types: a changed media type, a missing row', () => {
    const rows = [
      ['pdf', 'pdf', 'application/pdf', ''],
      ['docx', 'word', 'application/msword', 'dot'],
    ];
    const code: FileTypeRow[] = [
      { suffix: 'pdf', searchFileType: 'pdf', mediaTypes: ['application/pdf'] },
      { suffix: 'docx', searchFileType: 'word', mediaTypes: ['application/x-docx'], extensions: ['dot'] },
      { suffix: 'txt', searchFileType: 'txt', mediaTypes: ['text/plain'] },
    ];
    assert.deepEqual(fileTypeTableMismatches(rows, code), [
      'row 2: README | docx | word | application/msword | dot |, code | docx | word | application/x-docx | dot |',
      'row 3: code txt has no counterpart',
    ]);
    assert.deepEqual(fileTypeTableMismatches(rows.slice(0, 1), code.slice(0, 1)), []);
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
