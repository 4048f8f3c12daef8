/**
 * SQLite FTS5 adapter (better-sqlite3): `fts5(ext UNINDEXED, title, body,
 * tokenize='porter unicode61')`, ranked by `ORDER BY rank` where rank is the
 * default `bm25()` (column weights 1). A query is the OR of its word tokens,
 * each double-quoted so FTS5 syntax in the text is inert. Keyword columns go to
 * a side table `kw(field, value, doc)` with a covering primary key; a filter is
 * `+rowid IN (SELECT doc FROM kw WHERE field = ? AND value IN (...))` (the unary
 * plus keeps SQLite from driving the FTS5 scan by rowid: the set is built once
 * and checked per match).
 * In memory by default; with `dir` a file DB (default journal, synchronous=FULL),
 * one transaction per commit.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { BenchDoc } from '../corpora/types.ts';
import type { EngineAdapter, EngineOptions, KeywordFilter } from './types.ts';

/** `"tok1" OR "tok2" ...` from the letter/digit runs of the text; '' when none. */
export function ftsOrQuery(text: string): string {
  const toks = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
  return toks.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
}

export async function openSqlite(opts: EngineOptions): Promise<EngineAdapter> {
  let file: string | null = null;
  if (opts.dir) {
    mkdirSync(opts.dir, { recursive: true });
    file = join(opts.dir, 'bench.db');
  }
  const db = new Database(file ?? ':memory:');
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS docs USING fts5(ext UNINDEXED, title, body, tokenize='porter unicode61')`,
  );
  db.exec(
    `CREATE TABLE IF NOT EXISTS kw(field TEXT NOT NULL, value TEXT NOT NULL, doc INTEGER NOT NULL, PRIMARY KEY(field, value, doc)) WITHOUT ROWID`,
  );
  const insert = db.prepare('INSERT INTO docs(ext, title, body) VALUES (?, ?, ?)');
  const insertKw = db.prepare('INSERT OR IGNORE INTO kw(field, value, doc) VALUES (?, ?, ?)');
  const plain = db.prepare('SELECT ext FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT ?').pluck();
  const filtered = db
    .prepare(
      'SELECT ext FROM docs WHERE docs MATCH ? AND +rowid IN (SELECT doc FROM kw WHERE field = ? AND value IN (SELECT value FROM json_each(?))) ORDER BY rank LIMIT ?',
    )
    .pluck();
  return {
    name: 'sqlite',
    add(doc: BenchDoc) {
      if (!db.inTransaction) db.exec('BEGIN');
      const { lastInsertRowid } = insert.run(doc.id, doc.title, doc.body);
      if (doc.keywords) {
        for (const [field, values] of Object.entries(doc.keywords))
          for (const v of values) insertKw.run(field, v, lastInsertRowid);
      }
    },
    async commit() {
      if (db.inTransaction) db.exec('COMMIT');
    },
    search(query: string, k: number, filter?: KeywordFilter) {
      const q = ftsOrQuery(query);
      if (!q) return [];
      return (filter ? filtered.all(q, filter.field, JSON.stringify(filter.anyOf), k) : plain.all(q, k)) as string[];
    },
    async settle() {
      // no background work
    },
    async compact() {
      db.exec(`INSERT INTO docs(docs) VALUES('optimize')`);
    },
    sizeOnDiskBytes() {
      if (!file) return null;
      let n = 0;
      for (const f of [file, `${file}-wal`, `${file}-journal`]) if (existsSync(f)) n += statSync(f).size;
      return n;
    },
    async close() {
      if (db.inTransaction) db.exec('ROLLBACK');
      db.close();
    },
  };
}
