/**
 * Durability of saved conversations under kill -9: a child process appends
 * messages (and creates and deletes throwaway conversations, so compactions
 * run) and prints each acknowledged message; it is SIGKILLed at random
 * moments, 12 times. After every kill the store is reopened here: every
 * acknowledged message is there, at its position.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConversationStore } from '../../../src/conversations/store.ts';
import { silentLogger } from '../../../src/log.ts';
import { tempDir } from '../../support/tmp.ts';

const CHILD = join(import.meta.dirname, 'helpers', 'kill9-child.ts');
const ROUNDS = 12;

/** Run the child; SIGKILL it `killAfterMs` after it is ready. Resolves with the acknowledged messages. */
function runChild(dir: string, killAfterMs: number): Promise<[string, number][]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acked: [string, number][] = [];
    let buffered = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const [word, id, n] = line.split(' ');
        if (word === 'ready') setTimeout(() => child.kill('SIGKILL'), killAfterMs);
        else if (word === 'ack') acked.push([id, Number(n)]);
      }
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`child exited with ${code}: ${stderr}`));
      else resolve(acked);
    });
  });
}

test('every acknowledged message survives repeated kill -9, also during compactions', async () => {
  const dir = await tempDir('conv-kill9-');
  const all: [string, number][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    all.push(...(await runChild(dir, 50 + Math.random() * 400)));
    const store = new ConversationStore({ dir, log: silentLogger, now: () => Date.now() });
    const cache = new Map<string, string[]>();
    for (const [id, n] of all) {
      if (!cache.has(id))
        cache.set(
          id,
          (await store.get('acc_kill9', id)).messages.map((m) => m.content),
        );
      assert.equal(cache.get(id)![n], String(n), `round ${round}: message ${n} of ${id}`);
    }
    await store.close();
  }
  assert.ok(all.length > ROUNDS, `${all.length} messages acknowledged in ${ROUNDS} rounds`);
});
