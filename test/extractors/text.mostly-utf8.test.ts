/**
 * Text without BOM or charset that is UTF-8 except for a stray legacy byte (a log or CSV export
 * appended to by another program) stays UTF-8: one bad byte must not turn every umlaut of the
 * document into mojibake ("GrÃ¼ÃŸe"). Text that is windows-1252 throughout still decodes as such.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractInline } from '../../extractors/index.ts';

describe('text that is mostly UTF-8', () => {
  it('one invalid byte among many UTF-8 characters is replaced, the rest stays UTF-8', async () => {
    const bytes = new Uint8Array([...Buffer.from('Grüße aus München, Straße '), 0xe9, ...Buffer.from(' Ende')]);
    const e = await extractInline(bytes, { mediaType: 'text/plain' });
    assert.equal(e.text, 'Grüße aus München, Straße \ufffd Ende');
  });

  it('windows-1252 text throughout is still decoded as windows-1252', async () => {
    const e = await extractInline(new Uint8Array(Buffer.from('Gr\xfc\xdfe aus M\xfcnchen, Stra\xdfe', 'latin1')), {
      mediaType: 'text/plain',
    });
    assert.equal(e.text, 'Grüße aus München, Straße');
  });
});
