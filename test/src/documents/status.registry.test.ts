/** StatusRegistry: queued -> indexed at a commit; bounded memory without forgetting unsettled states. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusRegistry, type DocumentState, type DocumentStatus } from '../../../src/documents/status.ts';

const status = (id: string, state: DocumentState, seq: number): DocumentStatus => ({
  datasource: 'ds',
  document_id: id,
  state,
  outcome: state === 'skipped' ? 'skipped' : 'sent',
  message: '',
  last_modified: null,
  tokens: [],
  seq,
  received_at: 0,
  committed_at: null,
});

test('a commit settles queued and deleted entries up to its sequence number', () => {
  const r = new StatusRegistry();
  r.set('ds:a', status('a', 'queued', 1));
  r.set('ds:b', status('b', 'deleted', 2));
  r.set('ds:c', status('c', 'queued', 3));
  r.committed(2, 1000);
  assert.deepEqual([r.get('ds:a')?.state, r.get('ds:a')?.committed_at], ['indexed', 1000]);
  assert.deepEqual([r.get('ds:b')?.state, r.get('ds:b')?.committed_at], ['deleted', 1000]);
  assert.deepEqual([r.get('ds:c')?.state, r.get('ds:c')?.committed_at], ['queued', null]);
});

test('above its bound the registry forgets the oldest settled entries, never queued, skipped or failed ones', () => {
  const r = new StatusRegistry(3);
  r.set('ds:skip', status('skip', 'skipped', 1));
  r.set('ds:del1', status('del1', 'deleted', 2));
  r.set('ds:idx1', status('idx1', 'queued', 3));
  r.set('ds:fail', status('fail', 'failed', 4));
  r.set('ds:idx2', status('idx2', 'queued', 5));
  r.committed(5, 1000);
  assert.equal(r.size, 3);
  assert.equal(r.get('ds:del1'), undefined);
  assert.equal(r.get('ds:idx1'), undefined);
  assert.deepEqual(
    ['ds:skip', 'ds:fail', 'ds:idx2'].map((k) => r.get(k)?.state),
    ['skipped', 'failed', 'indexed'],
  );
  // Deletes alone must not grow it without bound; a document still queued is kept.
  for (let i = 0; i < 50; i++) r.set(`ds:d${i}`, status(`d${i}`, 'deleted', 10 + i));
  r.set('ds:wait', status('wait', 'queued', 60));
  r.committed(59, 2000);
  assert.equal(r.size, 3);
  assert.deepEqual(
    ['ds:skip', 'ds:fail', 'ds:wait'].map((k) => r.get(k)?.state),
    ['skipped', 'failed', 'queued'],
  );
});
