/**
 * Credential sealing: AES-256-GCM under a key derived from CONNECTOR_SECRET; the sealed form
 * holds no plaintext, opens only with the same secret for the same connector, and a missing
 * secret is refused with a message naming the setting.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CredentialsError,
  maskCredentials,
  openCredentials,
  sealCredentials,
} from '../../../src/connectors/secrets.ts';

const SECRET = 'a long operator secret for tests';
const creds = { username: 'crawler', password: 'correct horse battery staple' };

test('sealed credentials open with the same secret and connector, and hide the plaintext', async () => {
  const sealed = await sealCredentials(SECRET, 'conn_a', creds);
  const text = JSON.stringify(sealed);
  assert.doesNotMatch(text, /crawler|horse|battery/);
  assert.deepEqual(await openCredentials(SECRET, 'conn_a', sealed), creds);
  const again = await sealCredentials(SECRET, 'conn_a', creds);
  assert.notEqual(again.data, sealed.data, 'a fresh salt and nonce every time');
});

test('another secret or another connector cannot open them', async () => {
  const sealed = await sealCredentials(SECRET, 'conn_a', creds);
  await assert.rejects(openCredentials('another secret of enough length', 'conn_a', sealed), CredentialsError);
  await assert.rejects(openCredentials(SECRET, 'conn_b', sealed), /cannot be decrypted/);
  const tampered = { ...sealed, data: Buffer.from('x'.repeat(40)).toString('base64') };
  await assert.rejects(openCredentials(SECRET, 'conn_a', tampered), CredentialsError);
});

test('without CONNECTOR_SECRET nothing is sealed or opened', async () => {
  await assert.rejects(sealCredentials(undefined, 'conn_a', creds), /CONNECTOR_SECRET is not set/);
  const sealed = await sealCredentials(SECRET, 'conn_a', creds);
  await assert.rejects(openCredentials(undefined, 'conn_a', sealed), /CONNECTOR_SECRET is not set/);
});

test('the masked view names the fields only', () => {
  assert.deepEqual(maskCredentials(['username', 'password']), { username: '********', password: '********' });
  assert.equal(maskCredentials(null), null);
});
