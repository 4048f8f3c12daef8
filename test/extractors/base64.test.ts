/** decodeBase64Body: standard Base64 to bytes with the size limit checked before decoding. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExtractionError, decodeBase64Body } from '../../extractors/index.ts';

const isCode = (code: string) => (err: unknown) => err instanceof ExtractionError && err.code === code;

describe('decodeBase64Body', () => {
  it('decodes standard Base64, tolerating line breaks', () => {
    assert.deepEqual([...decodeBase64Body('aGVs\r\nbG8=')], [...new TextEncoder().encode('hello')]);
    assert.equal(decodeBase64Body('').length, 0);
  });

  it('rejects invalid Base64 as CORRUPT', () => {
    assert.throws(() => decodeBase64Body('aGVs*G8='), isCode('CORRUPT'));
    assert.throws(() => decodeBase64Body('aGVsb'), isCode('CORRUPT'));
    assert.throws(() => decodeBase64Body('aG=Vs'), isCode('CORRUPT'));
  });

  it('rejects bodies over the limit as TOO_LARGE before decoding', () => {
    assert.throws(() => decodeBase64Body('A'.repeat(16), 11), isCode('TOO_LARGE'));
    assert.equal(decodeBase64Body('A'.repeat(16), 12).length, 12);
  });
});
