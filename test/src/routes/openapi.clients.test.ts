/**
 * The served document as tools read it: `redocly lint` (its recommended
 * rules) finds no error in it, while it does find errors in a broken copy (so
 * the check can fail); and a TypeScript client generated from it by
 * openapi-typescript type-checks with `tsc --strict`, where a client using a
 * wrong field or type does not. Everything runs offline from node_modules.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { connectorHarness, MASTER, type ConnectorHarness } from '../../support/connectors.ts';

const run = promisify(execFile);
const MODULES = fileURLToPath(new URL('../../../node_modules/', import.meta.url));
const bin = (path: string) => join(MODULES, path);

let h: ConnectorHarness;
let dir: string;
let doc: any;

before(async () => {
  h = await connectorHarness({ audit: true });
  dir = await mkdtemp(join(tmpdir(), 'openapi-clients-'));
  const r = await h.app.request('/api/beta/openapi.json', { headers: { authorization: `Bearer ${MASTER}` } });
  assert.equal(r.status, 200);
  doc = await r.json();
  await writeFile(join(dir, 'openapi.json'), JSON.stringify(doc));
});
after(async () => {
  await h.close();
  await rm(dir, { recursive: true, force: true });
});

/** redocly lint's totals and problems for `file` (exit code 1 when it finds errors). */
async function lint(file: string): Promise<{ totals: { errors: number; warnings: number }; problems: any[] }> {
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  const args = [bin('@redocly/cli/bin/cli.js'), 'lint', file, '--format=json'];
  const out = await run(process.execPath, args, { cwd: dir, env, maxBuffer: 64 << 20 }).catch((err) => err);
  return JSON.parse(out.stdout);
}

describe('redocly lint', () => {
  test('the served document has no error', async () => {
    const result = await lint(join(dir, 'openapi.json'));
    const errors = result.problems.filter((p) => p.severity === 'error');
    assert.deepEqual(errors, []);
    assert.equal(result.totals.errors, 0);
  });

  test('a broken copy has errors (the check can fail)', async () => {
    const broken = structuredClone(doc);
    delete broken.servers;
    broken.paths['/api/beta/search'].get.responses['200'].content['application/json'].schema = {
      $ref: '#/components/schemas/NoSuchSchema',
    };
    await writeFile(join(dir, 'broken.json'), JSON.stringify(broken));
    const result = await lint(join(dir, 'broken.json'));
    assert.ok(result.totals.errors >= 2, JSON.stringify(result.totals));
  });
});

const CLIENT = `
import type { components, paths } from './api.js';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type SearchQuery = NonNullable<paths['/api/beta/search']['get']['parameters']['query']>;
type SearchOk = Json<paths['/api/beta/search']['get']['responses'][200]>;
type Push = Json<paths['/api/indexing/documents']['post']['requestBody']>;
type Completion = components['schemas']['ChatCompletionRequest'];

/** A typed call of the search endpoint. */
export async function search(base: string, key: string, query: SearchQuery): Promise<SearchOk> {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const res = await fetch(base + '/api/beta/search?' + qs, { headers: { authorization: 'Bearer ' + key } });
  return (await res.json()) as SearchOk;
}

export const titles = (ok: SearchOk): string[] => ok.results.map((r) => r.title + ' ' + r.similar_docs.length);
export const push: Push = {
  documents: [{ datasource: 'wiki', id: 'a', title: 'A', file_type: 'wiki', body: { mime_type: 'text/plain', text_content: 'x' } }],
};
export const completion: Completion = {
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  stop: ['\\\\n'],
  stream: true,
  stream_options: { include_usage: true },
};
export const error = (e: components['schemas']['ChatError']): string => e.error.message;
`;

async function typecheck(file: string): Promise<{ ok: boolean; output: string }> {
  const args = [bin('typescript/bin/tsc'), '--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext'];
  args.push('--moduleResolution', 'bundler', '--lib', 'es2022,dom', file);
  const out = await run(process.execPath, args, { cwd: dir }).then(
    (r) => ({ ok: true, output: r.stdout }),
    (err) => ({ ok: false, output: String(err.stdout) + String(err.stderr) }),
  );
  return out;
}

describe('a generated TypeScript client', () => {
  test('openapi-typescript generates types that a client type-checks against', async () => {
    await run(process.execPath, [bin('openapi-typescript/bin/cli.js'), 'openapi.json', '-o', 'api.d.ts'], { cwd: dir });
    await writeFile(join(dir, 'client.ts'), CLIENT);
    const result = await typecheck('client.ts');
    assert.ok(result.ok, result.output);
  });

  test('a client that sends a wrong field or type does not type-check', async () => {
    const wrong = CLIENT.replace('stream: true,', "stream: 'yes',").replace('r.title', 'r.titel');
    await writeFile(join(dir, 'wrong.ts'), wrong);
    const result = await typecheck('wrong.ts');
    assert.equal(result.ok, false);
    assert.match(result.output, /titel/);
    assert.match(result.output, /Type 'string' is not assignable to type 'boolean \| null \| undefined'/);
  });
});
