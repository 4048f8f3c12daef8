/**
 * The audit log's table of changes covers every state-changing route of the
 * admin API and the Indexing API's control plane, as the built app registers
 * them (connectors and upload sessions included), and leaves document pushes
 * and deletions out: they are content, not administration.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { auditedAction } from '../../../src/http/audit.ts';
import { connectorHarness } from '../../support/connectors.ts';

type Harness = Awaited<ReturnType<typeof connectorHarness>>;
let h: Harness;
before(async () => {
  h = await connectorHarness();
});
after(() => h.close());

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const isContent = (path: string) => /^\/api\/indexing\/(documents|upload-sessions\/:id\/documents)/.test(path);
const sample = (path: string) => path.replace(/:[a-z_]+/g, 'x');

function changeRoutes() {
  const seen = new Set<string>();
  return h.app.routes
    .filter((r) => CHANGES.has(r.method) && /^\/api\/(admin|indexing)\//.test(r.path))
    .filter((r) => !seen.has(`${r.method} ${r.path}`) && seen.add(`${r.method} ${r.path}`));
}

test('every state-changing admin and control-plane route has an audit action', () => {
  const routes = changeRoutes().filter((r) => !isContent(r.path));
  assert.ok(
    routes.some((r) => r.path.startsWith('/api/admin/connectors')),
    'the connectors API is mounted',
  );
  assert.ok(
    routes.some((r) => r.path.startsWith('/api/indexing/upload-sessions')),
    'upload sessions are mounted',
  );
  const missing = routes.filter((r) => auditedAction(r.method, sample(r.path)) === undefined);
  assert.deepEqual(
    missing.map((r) => `${r.method} ${r.path}`),
    [],
  );
});

test('document pushes, deletions and check-access are not administrative changes', () => {
  const content = changeRoutes().filter((r) => isContent(r.path));
  assert.ok(content.length >= 3, 'push, check-access, delete and upload-session pushes are mounted');
  for (const r of content) assert.equal(auditedAction(r.method, sample(r.path)), undefined, `${r.method} ${r.path}`);
});
