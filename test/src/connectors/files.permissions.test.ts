/**
 * Permissions of the files connector: a grant per folder subtree (the longest folder wins,
 * the default for the rest), or the POSIX owner, group and world read bits mapped to users
 * and groups; a chmod changes the version, so the next run pushes the new access tokens.
 */
import assert from 'node:assert/strict';
import { chmod, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connectorHarness, tempDir, writeTree, type ConnectorHarness } from '../../support/connectors.ts';

let h: ConnectorHarness;
let root: string;
before(async () => {
  h = await connectorHarness();
  root = await tempDir('files-perms-');
  await writeTree(root, {
    'hr/a.txt': 'a',
    'hr/public/b.txt': 'b',
    'hrm/c.txt': 'c',
    'other/d.txt': 'd',
    'posix/owner-only.txt': 'e',
    'posix/group.txt': 'f',
    'posix/world.txt': 'g',
    'posix/nobody.txt': 'h',
  });
});
after(async () => {
  await h.close();
  await rm(root, { recursive: true, force: true });
});

/** The access tokens of an indexed document (null: not indexed). */
function acl(ds: string, key: string): string[] | null {
  const doc = h.doc(ds, key);
  return doc ? (doc.keywords.acl ?? []) : null;
}

describe('files connector permissions', () => {
  it('gives each folder subtree its grant, the longest folder winning', async () => {
    const c = await h.create({
      name: 'Folders',
      type: 'fileshares',
      datasource: 'folders',
      settings: {
        root,
        exclude: ['posix/**'],
        permissions: {
          mode: 'folders',
          folders: [
            { path: 'hr', groups: ['hr-team'], users: ['Lead@Example.com'] },
            { path: 'hr/public', everyone: true },
          ],
          default: { users: ['boss@example.com'] },
        },
      },
    });
    const run = await h.run(c.id);
    assert.equal(run.counts.sent, 4);
    assert.deepEqual(acl('folders', 'hr/a.txt'), ['folders|g|hr-team', 'folders|u|lead@example.com']);
    assert.deepEqual(acl('folders', 'hr/public/b.txt'), ['folders|*']);
    assert.deepEqual(acl('folders', 'hrm/c.txt'), ['folders|u|boss@example.com'], 'hr does not cover hrm');
    assert.deepEqual(acl('folders', 'other/d.txt'), ['folders|u|boss@example.com']);
  });

  it('maps the POSIX owner, group and world read bits; a chmod is pushed again', async () => {
    const s = await stat(join(root, 'posix/group.txt'));
    await chmod(join(root, 'posix/owner-only.txt'), 0o600);
    await chmod(join(root, 'posix/group.txt'), 0o640);
    await chmod(join(root, 'posix/world.txt'), 0o644);
    await chmod(join(root, 'posix/nobody.txt'), 0o000);
    const c = await h.create({
      name: 'Posix',
      type: 'fileshares',
      datasource: 'posix',
      settings: {
        root: join(root, 'posix'),
        permissions: {
          mode: 'posix',
          users: { [String(s.uid)]: 'owner@example.com' },
          groups: { [String(s.gid)]: 'staff' },
        },
      },
    });
    const run = await h.run(c.id);
    assert.equal(run.counts.sent, 4, JSON.stringify(run.failures));
    assert.deepEqual(acl('posix', 'owner-only.txt'), ['posix|u|owner@example.com']);
    assert.deepEqual(acl('posix', 'group.txt'), ['posix|g|staff', 'posix|u|owner@example.com']);
    assert.deepEqual(acl('posix', 'world.txt'), ['posix|*', 'posix|g|staff', 'posix|u|owner@example.com']);
    assert.deepEqual(acl('posix', 'nobody.txt'), [], 'no read bit: visible to nobody');
    await chmod(join(root, 'posix/world.txt'), 0o600);
    const again = await h.run(c.id);
    assert.equal(again.counts.sent, 1, 'only the chmod-ed file');
    assert.deepEqual(acl('posix', 'world.txt'), ['posix|u|owner@example.com']);
  });
});
