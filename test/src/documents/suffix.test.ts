/**
 * Suffix and search-file-type mapping from media type and names (the pipeline skips
 * suffixes over 10 characters), and the table's agreement with the extractors' registry.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registeredExtensions, registeredMediaTypes } from '../../../extractors/index.ts';
import { FILE_TYPE_TABLE, computeSuffix, fileTypeTableMarkdown } from '../../../src/documents/suffix.ts';

const SEARCH_TYPES = new Set([
  'pdf',
  'word',
  'powerpoint',
  'excel',
  'html',
  'txt',
  'compressed',
  'image',
  'email',
  'onenote',
  'other',
]);

describe('computeSuffix', () => {
  const cases: [string, string | undefined, string, string][] = [
    ['application/pdf', undefined, 'pdf', 'pdf'],
    ['application/pdf', 'scan.bin', 'pdf', 'pdf'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', undefined, 'docx', 'word'],
    ['application/msword', undefined, 'doc', 'word'],
    ['application/vnd.oasis.opendocument.text', undefined, 'odt', 'word'],
    ['application/rtf', undefined, 'rtf', 'word'],
    ['application/vnd.openxmlformats-officedocument.presentationml.presentation', undefined, 'pptx', 'powerpoint'],
    ['application/vnd.ms-powerpoint', undefined, 'ppt', 'powerpoint'],
    ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', undefined, 'xlsx', 'excel'],
    ['text/csv; charset=utf-8', undefined, 'csv', 'excel'],
    ['text/html', undefined, 'html', 'html'],
    ['application/xhtml+xml', undefined, 'xhtml', 'html'],
    ['text/plain', undefined, 'txt', 'txt'],
    ['text/markdown', undefined, 'md', 'txt'],
    ['message/rfc822', undefined, 'eml', 'email'],
    ['application/onenote', undefined, 'one', 'onenote'],
    ['application/zip', undefined, 'zip', 'compressed'],
    ['image/jpeg', undefined, 'jpg', 'image'],
    ['application/octet-stream', 'Budget 2026.XLSX', 'xlsx', 'excel'],
    ['', 'notes.htm', 'htm', 'html'],
    ['application/octet-stream', 'archive.tar.gz', 'gz', 'compressed'],
    ['application/x-custom', 'model.stl', 'stl', 'other'],
    ['image/x-custom', 'scan.raw2', 'raw2', 'image'],
    ['application/octet-stream', 'backup.verylongextension', 'verylongextension', 'other'],
    ['application/octet-stream', 'README', '', 'other'],
    ['text/x-unknown', undefined, '', 'txt'],
  ];
  for (const [mediaType, fileName, suffix, type] of cases) {
    it(`${mediaType || '(none)'} + ${fileName ?? '(no name)'} -> ${suffix || '(empty)'} / ${type}`, () => {
      assert.deepEqual(computeSuffix({ mediaType, fileName }), { suffix, searchFileType: type });
    });
  }

  it('falls back from file name to title to path for the extension', () => {
    assert.deepEqual(computeSuffix({ mediaType: '', title: 'Minutes.docx', path: 'a/b/c.pdf' }), {
      suffix: 'docx',
      searchFileType: 'word',
    });
    assert.deepEqual(computeSuffix({ mediaType: '', title: 'Minutes', path: 'https://x.example/files/c.pdf?dl=1' }), {
      suffix: 'pdf',
      searchFileType: 'pdf',
    });
  });

  it('ignores dotfiles and numeric tails as extensions', () => {
    assert.deepEqual(computeSuffix({ mediaType: '', fileName: '.bashrc' }), { suffix: '', searchFileType: 'other' });
    assert.deepEqual(computeSuffix({ mediaType: '', title: 'Release v1.2' }), { suffix: '', searchFileType: 'other' });
  });

  it('a long computed suffix is reported as is so the pipeline can skip it', () => {
    assert.ok(computeSuffix({ mediaType: '', fileName: 'x.abcdefghijkl' }).suffix.length > 10);
  });
});

describe('FILE_TYPE_TABLE', () => {
  it('uses only allowed search file types and unique suffixes and media types', () => {
    const suffixes = new Set<string>();
    const media = new Set<string>();
    for (const row of FILE_TYPE_TABLE) {
      assert.ok(SEARCH_TYPES.has(row.searchFileType), row.suffix);
      assert.ok(row.suffix.length <= 10);
      assert.ok(!suffixes.has(row.suffix), row.suffix);
      suffixes.add(row.suffix);
      for (const m of row.mediaTypes) {
        assert.ok(!media.has(m), m);
        media.add(m);
        assert.deepEqual(computeSuffix({ mediaType: m }), { suffix: row.suffix, searchFileType: row.searchFileType });
      }
    }
  });

  it('renders as a markdown table with one line per row', () => {
    const md = fileTypeTableMarkdown().split('\n');
    assert.equal(md.length, FILE_TYPE_TABLE.length + 2);
    assert.match(md[2], /^\| pdf \| pdf \| application\/pdf/);
  });
});

describe('the suffix table and the extractors', () => {
  it('every media type and extension of the table is one the extractors resolve by name', () => {
    const mediaTypes = new Set(registeredMediaTypes());
    const extensions = new Set(registeredExtensions());
    for (const row of FILE_TYPE_TABLE) {
      for (const m of row.mediaTypes) assert.ok(mediaTypes.has(m), `${row.suffix}: media type ${m}`);
      for (const e of [row.suffix, ...(row.extensions ?? [])]) assert.ok(extensions.has(e), `${row.suffix}: .${e}`);
    }
  });
});
