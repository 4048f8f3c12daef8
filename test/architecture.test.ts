/**
 * The module boundaries, enforced:
 * 1. engine/ and extractors/ import nothing outside themselves (packages and node: built-ins aside).
 * 2. src/ uses engine/ and extractors/ only through engine/index.ts and extractors/index.ts.
 * 3. hono and @hono/* are imported only by the HTTP layer.
 * 4. Domain code (the rest of src/) imports nothing of the HTTP layer.
 * 5. The folders of src/ form no cycle (each top-level folder is one node, each file
 *    directly in src/ another).
 * The HTTP layer is src/app.ts, src/main.ts (serves the app), src/services.ts (what the
 * app is built from), src/routes/, src/http/, src/auth/middleware.ts and src/web/ (pages).
 * Imports are read with TypeScript's own scanner (static, type-only, re-exports, dynamic)
 * plus worker entries (`new URL('./x.ts', import.meta.url)`). Every rule is also run on
 * graphs with a planted violation, so the test cannot pass by finding nothing.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** An import: `from` and `to` are repository paths (`src/app.ts`); a package or built-in is `pkg:<name>`. */
interface Edge {
  from: string;
  to: string;
}

const HTTP_LAYER = [/^src\/(app|main|services)\.ts$/, /^src\/(routes|http|web)\//, /^src\/auth\/middleware\.ts$/];
const isHttpLayer = (file: string) => HTTP_LAYER.some((re) => re.test(file));
const isHono = (to: string) => /^pkg:(hono($|\/)|@hono\/)/.test(to);
const topFolder = (file: string) => file.split('/')[0];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );
}

const WORKER_ENTRY = /new URL\(\s*['"](\.{1,2}\/[^'"]+\.ts)['"]\s*,\s*import\.meta\.url\s*\)/g;

/** Every import of the .ts files under `dirs`. */
function scan(dirs: string[]): Edge[] {
  const edges: Edge[] = [];
  for (const from of dirs.flatMap(sourceFiles)) {
    const text = readFileSync(join(ROOT, from), 'utf8');
    const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
    for (const m of text.matchAll(WORKER_ENTRY)) specifiers.push(m[1]);
    for (const s of specifiers) {
      const to = s.startsWith('.') ? posix.normalize(posix.join(posix.dirname(from), s)) : `pkg:${s}`;
      edges.push({ from, to });
    }
  }
  return edges;
}

/** Violations of rules 1-4, one message per offending import. */
function boundaryViolations(edges: readonly Edge[]): string[] {
  const out: string[] = [];
  for (const { from, to } of edges) {
    const source = topFolder(from);
    if (isHono(to) && !isHttpLayer(from)) out.push(`${from} imports ${to.slice(4)} outside the HTTP layer`);
    if (to.startsWith('pkg:')) continue;
    const target = topFolder(to);
    if ((source === 'engine' || source === 'extractors') && target !== source)
      out.push(`${from} imports ${to}, outside ${source}/`);
    if (source === 'src' && (target === 'engine' || target === 'extractors') && to !== `${target}/index.ts`)
      out.push(`${from} reaches past ${target}/index.ts to ${to}`);
    if (source === 'src' && !isHttpLayer(from) && isHttpLayer(to))
      out.push(`${from} is domain code and imports the HTTP layer (${to})`);
  }
  return out;
}

/** The cycle-graph node of a src/ file: its top-level folder (`search/`) or, directly in src/, the file. */
function nodeOf(file: string): string | undefined {
  if (!file.startsWith('src/')) return undefined;
  const rest = file.slice(4);
  const slash = rest.indexOf('/');
  return slash < 0 ? rest : rest.slice(0, slash + 1);
}

/** Cycles among the nodes of src/ (strongly connected components of two or more), with their imports. */
function folderCycles(edges: readonly Edge[]): string[] {
  const next = new Map<string, Map<string, string>>();
  for (const { from, to } of edges) {
    const a = nodeOf(from);
    const b = nodeOf(to);
    if (!a || !b || a === b) continue;
    if (!next.has(a)) next.set(a, new Map());
    if (!next.get(a)!.has(b)) next.get(a)!.set(b, `${from} -> ${to}`);
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const members: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      members.push(w);
    } while (w !== v);
    if (members.length < 2) return;
    const inside = new Set(members);
    const imports = members.flatMap((m) => [...(next.get(m) ?? [])].filter(([t]) => inside.has(t)).map(([, e]) => e));
    cycles.push(`cycle between ${members.sort().join(', ')}:\n  ${imports.sort().join('\n  ')}`);
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

const edges = (...pairs: [string, string][]): Edge[] => pairs.map(([from, to]) => ({ from, to }));

describe('the detector finds planted violations', () => {
  it('engine/ or extractors/ importing outside themselves', () => {
    const found = boundaryViolations(
      edges(['engine/query/plan.ts', 'src/log.ts'], ['extractors/pool.ts', 'engine/index.ts']),
    );
    assert.equal(found.length, 2, found.join('\n'));
  });

  it('src/ reaching past engine/index.ts or extractors/index.ts', () => {
    const found = boundaryViolations(
      edges(['src/search/x.ts', 'engine/query/plan.ts'], ['src/routes/x.ts', 'extractors/registry.ts']),
    );
    assert.equal(found.length, 2, found.join('\n'));
  });

  it('hono or @hono/* outside the HTTP layer', () => {
    const found = boundaryViolations(
      edges(
        ['src/chat/service.ts', 'pkg:hono'],
        ['src/documents/push.ts', 'pkg:hono/http-exception'],
        ['src/auth/authenticate.ts', 'pkg:@hono/node-server'],
        ['engine/index.ts', 'pkg:hono'],
      ),
    );
    assert.equal(found.length, 4, found.join('\n'));
  });

  it('domain code importing the HTTP layer', () => {
    const found = boundaryViolations(
      edges(
        ['src/documents/push.ts', 'src/http/body.ts'],
        ['src/chat/service.ts', 'src/auth/middleware.ts'],
        ['src/chat/search-source.ts', 'src/services.ts'],
        ['src/search/service.ts', 'src/web/page.ts'],
        ['src/config.ts', 'src/app.ts'],
      ),
    );
    assert.equal(found.length, 5, found.join('\n'));
  });

  it('a folder cycle, also through a file directly in src/', () => {
    const found = folderCycles(
      edges(
        ['src/a/x.ts', 'src/b/y.ts'],
        ['src/b/y.ts', 'src/c/z.ts'],
        ['src/c/z.ts', 'src/a/w.ts'],
        ['src/services.ts', 'src/chat/tools.ts'],
        ['src/chat/search.ts', 'src/services.ts'],
      ),
    );
    assert.equal(found.length, 2, found.join('\n'));
    assert.match(found.join('\n'), /a\/, b\/, c\//);
  });

  it('and lets the allowed imports pass', () => {
    const allowed = edges(
      ['src/routes/search.ts', 'pkg:hono'],
      ['src/web/page.ts', 'pkg:hono'],
      ['src/main.ts', 'pkg:@hono/node-server'],
      ['src/auth/middleware.ts', 'pkg:hono'],
      ['src/routes/files.ts', 'extractors/index.ts'],
      ['src/search/service.ts', 'engine/index.ts'],
      ['engine/index.ts', 'engine/query/plan.ts'],
      ['engine/index.ts', 'pkg:@node-rs/xxhash'],
      ['src/auth/authenticate.ts', 'src/accounts/principal.ts'],
      ['src/routes/chat.ts', 'src/chat/service.ts'],
      ['src/app.ts', 'src/routes/chat.ts'],
      ['src/routes/chat.ts', 'src/errors.ts'],
    );
    assert.deepEqual(boundaryViolations(allowed), []);
    assert.deepEqual(folderCycles(allowed), []);
  });
});

describe('the repository keeps the rules', () => {
  const graph = scan(['src', 'engine', 'extractors']);

  it('the scan sees the whole source tree', () => {
    const files = new Set(graph.map((e) => e.from));
    assert.ok(files.size > 180, `only ${files.size} files with imports`);
    assert.ok(graph.some((e) => e.from === 'src/app.ts' && e.to === 'pkg:hono'));
    assert.ok(graph.some((e) => e.from === 'src/search/pool.ts' && e.to === 'src/search/search-worker.ts'));
    assert.ok(graph.some((e) => e.from.startsWith('src/') && e.to === 'engine/index.ts'));
  });

  it('engine/ and extractors/ stay closed, src/ uses their index.ts, hono stays in the HTTP layer', () => {
    assert.deepEqual(boundaryViolations(graph), []);
  });

  it('src/ has no folder cycle', () => {
    assert.deepEqual(folderCycles(graph), []);
  });

  it('a violation planted in the real graph is found', () => {
    const planted = [
      ...graph,
      ...edges(['src/storage/record-log.ts', 'src/documents/queue.ts'], ['engine/index.ts', 'src/log.ts']),
    ];
    assert.equal(boundaryViolations(planted).length, 1);
    assert.equal(folderCycles(planted).length, 1);
  });
});
