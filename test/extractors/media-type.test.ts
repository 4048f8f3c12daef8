/** Format names: media types without parameters, file-name extensions, and the registry's table of both. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  baseMediaType,
  extensionOf,
  registeredExtensions,
  registeredMediaTypes,
  resolveExtractor,
  DEFAULT_LIMITS,
} from '../../extractors/index.ts';

describe('extensionOf', () => {
  it('ignores dotfiles and numeric tails as extensions', () => {
    assert.equal(extensionOf('.bashrc'), undefined);
    assert.equal(extensionOf('Release v1.2'), undefined);
    assert.equal(extensionOf('dir.d/file'), undefined);
  });

  it('reads the last path segment of a name or URL, lower-cased', () => {
    assert.equal(extensionOf('Budget 2026.XLSX'), 'xlsx');
    assert.equal(extensionOf('https://x.example/files/c.pdf?dl=1#p2'), 'pdf');
    assert.equal(extensionOf('archive.tar.gz'), 'gz');
  });
});

describe('baseMediaType', () => {
  it('drops parameters and case', () => {
    assert.equal(baseMediaType('Text/CSV; charset=utf-8'), 'text/csv');
    assert.equal(baseMediaType(undefined), '');
  });
});

describe('the registry by name', () => {
  const empty = new Uint8Array(0);
  it('a named extension decides over the content sniffer, also for formats read as metadata only', () => {
    assert.equal(resolveExtractor(empty, '', 'minutes.docx', DEFAULT_LIMITS).format, 'docx');
    assert.equal(resolveExtractor(empty, '', 'minutes.doc', DEFAULT_LIMITS).format, 'metadata-only');
    assert.equal(
      resolveExtractor(empty, 'application/vnd.ms-outlook', 'mail.txt', DEFAULT_LIMITS).format,
      'metadata-only',
    );
  });

  it('every registered media type and extension resolves to a registry format', () => {
    for (const m of registeredMediaTypes()) assert.ok(resolveExtractor(empty, m, undefined, DEFAULT_LIMITS).format, m);
    assert.ok(registeredExtensions().includes('pdf'));
    assert.ok(registeredMediaTypes().includes('application/pdf'));
  });
});
