/**
 * Durability under kill -9: a child process commits events and prints each
 * acknowledged id; it is SIGKILLed at random moments (also during start-up
 * replay and during compactions), 20 times. After every kill the state is
 * replayed here: every acknowledged id must be present, in order, with no
 * gap or duplicate.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { silentLogger } from '../../../src/log.ts';
import { FsJournal } from '../../../src/storage/fs-journal.ts';
import { StateStore } from '../../../src/state/store.ts';
import { seqPart } from './helpers/seq-part.ts';
import { tempDir } from '../../support/tmp.ts';

const CHILD = join(import.meta.dirname, 'helpers', 'journal-child.ts');
const ROUNDS = 20;

interface Round {
  ready: number | undefined;
  acked: number[];
}

/** Run the child, SIGKILL it after `killAfterMs` counted from `ready` (or from spawn when `early`). */
function runChild(dir: string, killAfterMs: number, early: boolean): Promise<Round> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    const round: Round = { ready: undefined, acked: [] };
    let buffered = '';
    let stderr = '';
    const kill = () => child.kill('SIGKILL');
    if (early) setTimeout(kill, killAfterMs);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const [word, n] = line.split(' ');
        if (word === 'ready') {
          round.ready = Number(n);
          if (!early) setTimeout(kill, killAfterMs);
        } else if (word === 'ack') round.acked.push(Number(n));
      }
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`child exited with ${code}: ${stderr}`));
      else resolve(round);
    });
  });
}

test('every acknowledged event survives repeated kill -9, in order', async () => {
  const dir = await tempDir('kill9-');
  let maxAcked = -1;
  let totalAcked = 0;
  let compactedRounds = 0;
  let lastGeneration = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const early = i % 5 === 4; // some kills land during start-up and replay
    const round = await runChild(dir, early ? 150 + Math.random() * 400 : Math.random() * 250, early);

    if (round.ready !== undefined)
      assert.ok(round.ready > maxAcked, `round ${i} resumed at ${round.ready}, after ${maxAcked}`);
    for (let k = 1; k < round.acked.length; k++)
      assert.equal(round.acked[k], round.acked[k - 1] + 1, 'acks are in order');
    if (round.acked.length > 0) {
      assert.equal(round.acked[0], round.ready, 'the first ack follows the replayed state');
      maxAcked = round.acked[round.acked.length - 1];
      totalAcked += round.acked.length;
    }

    const journal = new FsJournal({ dir: dir, compactBytes: 1 << 30, log: silentLogger });
    const store = await StateStore.open(journal, [seqPart]);
    const s = store.get(seqPart);
    assert.deepEqual(s.violations, [], `round ${i}: replay is gap-free and ordered`);
    assert.ok(
      s.next > maxAcked,
      `round ${i}: every acknowledged id is present (next ${s.next}, max acked ${maxAcked})`,
    );
    if (journal.generation > lastGeneration) compactedRounds++;
    lastGeneration = journal.generation;
    await store.close();
  }
  assert.ok(totalAcked > ROUNDS, `the children acknowledged work (${totalAcked} acks)`);
  assert.ok(compactedRounds > 0, 'compactions happened between kills');
});
