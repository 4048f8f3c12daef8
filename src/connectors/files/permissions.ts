/**
 * Who may see a file, from the connector's `permissions` setting:
 * - `everyone`: everyone registered on the datasource;
 * - `folders`: the grant of the longest configured folder containing the file, else `default`;
 * - `posix`: the file's own mode bits: the owner (if the owner-read bit is set and `users` maps
 *   the uid to an email), the group (if group-read is set and `groups` maps the gid to a group
 *   name), and everyone registered on the datasource if the file is world-readable (unless
 *   `world_readable` is `ignore`). Unmapped owners and groups grant nothing, so a file may be
 *   visible to nobody. Limits: only the file's own bits count (not the search or read bits of its
 *   folders), POSIX ACLs, NFSv4 and SMB ACLs are not read, uids and gids are compared as numbers
 *   (as the server's mount shows them), and group members come from the datasource's groups.
 * `versionPart` is what of the file's metadata the permissions depend on, so that a chmod or
 * chown changes the item's version and pushes it again.
 */
import type { Stats } from 'node:fs';
import { EVERYONE, pathRules, toPermissions, type Grant } from '../grants.ts';
import type { SourceDocument } from '../types.ts';
import type { FilesSettings } from './settings.ts';

export interface FilePermissions {
  of(relPath: string, stat: Stats): SourceDocument['permissions'];
  versionPart(stat: Stats): string;
}

export function filePermissions(settings: FilesSettings['permissions']): FilePermissions {
  if (settings.mode === 'everyone') return { of: () => toPermissions(EVERYONE), versionPart: () => '' };
  if (settings.mode === 'folders') {
    const rule = pathRules(settings.folders, settings.default);
    return { of: (rel) => toPermissions(rule(rel)), versionPart: () => '' };
  }
  const { users, groups, world_readable } = settings;
  return {
    of(_rel, stat) {
      const grant: Grant = { everyone: false, users: [], groups: [] };
      const owner = users[String(stat.uid)];
      const group = groups[String(stat.gid)];
      if (owner && stat.mode & 0o400) grant.users.push(owner);
      if (group && stat.mode & 0o040) grant.groups.push(group);
      if (world_readable === 'everyone' && stat.mode & 0o004) grant.everyone = true;
      return toPermissions(grant);
    },
    versionPart: (stat) => `${stat.uid}:${stat.gid}:${(stat.mode & 0o777).toString(8)}`,
  };
}
