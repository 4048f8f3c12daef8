/**
 * ZIP member names without the UTF-8 flag (general purpose bit 11): names written by Windows
 * Explorer and older tools are in the DOS code page (CP437), macOS Archive Utility writes UTF-8
 * without the flag. Both come out as the original name (umlauts intact), searchable as text.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractInline } from '../../extractors/index.ts';
import { writeZip } from './fixtures/zip-writer.ts';

/** A ZIP with one member whose raw name bytes are `name` and whose UTF-8 flag is cleared. */
function zipWithRawName(name: Uint8Array, data: string): Uint8Array {
  const placeholder = 'N'.repeat(name.length);
  const zip = writeZip([{ name: placeholder, data }]);
  const ph = new TextEncoder().encode(placeholder);
  const v = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  for (let i = 0; i + 4 <= zip.length; i++) {
    const sig = v.getUint32(i, true);
    if (sig === 0x04034b50 && zip.subarray(i + 30, i + 30 + ph.length).every((b, k) => b === ph[k])) {
      v.setUint16(i + 6, 0, true);
      zip.set(name, i + 30);
    } else if (sig === 0x02014b50 && zip.subarray(i + 46, i + 46 + ph.length).every((b, k) => b === ph[k])) {
      v.setUint16(i + 8, 0, true);
      zip.set(name, i + 46);
    }
  }
  return zip;
}

describe('ZIP member names without the UTF-8 flag', () => {
  it('CP437 names (Windows Explorer) are decoded with the DOS code page', async () => {
    // "Übersicht März.txt" in CP437: Ü = 0x9A, ä = 0x84
    const name = new Uint8Array([0x9a, ...Buffer.from('bersicht M'), 0x84, ...Buffer.from('rz.txt')]);
    const e = await extractInline(zipWithRawName(name, 'Umsatzzahlen'), { mediaType: 'application/zip' });
    assert.equal(e.sections[0].label, 'Übersicht März.txt');
    assert.equal(e.text, 'Übersicht März.txt\nUmsatzzahlen');
  });

  it('UTF-8 names without the flag (macOS) stay UTF-8', async () => {
    const e = await extractInline(zipWithRawName(Buffer.from('Übersicht März.txt', 'utf8'), 'Umsatzzahlen'), {
      mediaType: 'application/zip',
    });
    assert.equal(e.sections[0].label, 'Übersicht März.txt');
  });
});
