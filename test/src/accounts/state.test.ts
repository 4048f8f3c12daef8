/** The accounts state part survives snapshots: after compaction and restart, accounts, keys, revocations and service accounts are the same. */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { test } from 'node:test';
import {
  createAccount,
  createPersonalKey,
  deleteAccount,
  listAccounts,
  revokeKey,
} from '../../../src/accounts/accounts.ts';
import { createServiceAccount, listServiceAccounts } from '../../../src/accounts/service-accounts.ts';
import { ensureMasterKey } from '../../../src/accounts/master.ts';
import { authenticate } from '../../../src/auth/authenticate.ts';
import { loadConfig } from '../../../src/config.ts';
import { silentLogger } from '../../../src/log.ts';
import { openState, stateDir } from '../../../src/open-state.ts';
import { tempDir } from '../../support/tmp.ts';

test('accounts, keys and service accounts replay identically from snapshots and logs', async () => {
  const dataDir = await tempDir('accounts-');
  const config = loadConfig({ DATA_DIR: dataDir });
  const now = () => Date.parse('2026-03-01T00:00:00Z');
  const open = () => openState({ dataDir, stateCompactBytes: 600 }, silentLogger);

  const state = await open();
  const deps = { state, now, config };
  const master = (await ensureMasterKey(deps))!;
  const keys: string[] = [];
  for (let i = 0; i < 12; i++) {
    await createAccount(
      deps,
      { email: `user${i}@example.com`, name: `User ${i}`, roles: i % 2 ? ['developer'] : ['administrator'] },
      'master',
    );
    keys.push(
      (
        await createPersonalKey(
          deps,
          `user${i}@example.com`,
          i % 3 ? null : Date.parse('2027-01-01T00:00:00Z'),
          'master',
        )
      ).key,
    );
  }
  const revoked = listAccounts(deps)[1].keys[0].id;
  await revokeKey(deps, revoked, { mayRevokeServiceKeys: false, actor: 'master' });
  await deleteAccount(deps, 'user5@example.com', 'master');
  const sa = await createServiceAccount(deps, { name: 'bot', expiresAt: null, createdBy: 'master' });
  const before = { accounts: listAccounts(deps), serviceAccounts: listServiceAccounts(deps) };
  await state.close();
  assert.ok(
    (await readdir(stateDir(dataDir))).some((n) => /^snapshot-\d+\.bin$/.test(n)),
    'a snapshot was written',
  );

  const reopened = await open();
  const again = { state: reopened, now, config };
  assert.deepEqual({ accounts: listAccounts(again), serviceAccounts: listServiceAccounts(again) }, before);
  assert.deepEqual(await authenticate(again, `Bearer ${master}`), { kind: 'master' });
  assert.equal((await authenticate(again, `Bearer ${sa.key}`)).kind, 'service_account');
  assert.equal((await authenticate(again, `Bearer ${keys[0]}`)).kind, 'account');
  await assert.rejects(authenticate(again, `Bearer ${keys[5]}`), { kind: 'UNAUTHORIZED' });
  await reopened.close();
});
