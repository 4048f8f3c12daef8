/**
 * The files connector (`fileshares`): crawls a folder tree (local, or an SMB or NFS share
 * mounted on the server) and makes each file a `file` document. The key is the path relative
 * to the root; the version is the modification time and size (plus owner, group and mode under
 * POSIX permissions), so an unchanged file is neither read nor extracted. A changed file's bytes
 * go through the extractors like a `binary_base64` push; its media type comes from the file
 * extension (the suffix table), else the extractors sniff the content. The breadcrumb is the
 * relative path under `breadcrumb`; `path_preview` comes from `url_template`; `last_modified`
 * is the modification time. A root that is empty (an unmounted share shows as an empty folder)
 * or a folder that cannot be listed makes the listing incomplete, so nothing is deleted. The
 * service's own data directory is never crawled (a root inside it fails the run).
 */
import { readFile, readdir } from 'node:fs/promises';
import { basename, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lookupFileType } from '../../documents/suffix.ts';
import { globMatcher } from '../glob.ts';
import type { ConnectorModule, RunContext, SourceDocument, SourceItem } from '../types.ts';
import { filePermissions } from './permissions.ts';
import { FilesSettings } from './settings.ts';
import { countFiles, walkFiles, type WalkOptions } from './walk.ts';

async function* items(run: RunContext<FilesSettings>): AsyncGenerator<SourceItem> {
  const s = run.settings;
  const maxBytes = Math.min(s.max_file_bytes ?? run.config.maxBinaryBytes, run.config.maxBinaryBytes);
  const permissions = filePermissions(s.permissions);
  const crumb = s.breadcrumb || basename(s.root) || 'files';
  const dataDir = resolve(run.config.dataDir);
  const root = resolve(s.root);
  if (root === dataDir || root.startsWith(dataDir + sep))
    throw new Error(`the root folder ${s.root} is inside the service's data directory, which is never crawled`);
  const walk: WalkOptions = {
    root: s.root,
    include: s.include.length > 0 ? globMatcher(s.include) : null,
    exclude: globMatcher(s.exclude),
    hidden: s.hidden,
    followSymlinks: s.follow_symlinks,
    skip: dataDir,
    signal: run.signal,
    onUnreadable: (rel, err) => run.incomplete(`folder ${rel} could not be listed: ${err.message}`),
  };
  let rootEntries: string[];
  try {
    rootEntries = await readdir(s.root);
  } catch (err) {
    throw new Error(`the root folder ${s.root} cannot be read: ${(err as Error).message}`);
  }
  if (rootEntries.length === 0) run.incomplete(`the root folder ${s.root} is empty (an unmounted share?)`);
  run.setTotal(await countFiles(walk));
  for await (const f of walkFiles(walk)) {
    if ('error' in f) {
      yield { key: f.rel, failed: `cannot read the file's metadata: ${f.error.message}` };
      continue;
    }
    const { rel, abs, stat } = f;
    if (stat.size > maxBytes) {
      yield { key: rel, failed: `the file has ${stat.size} bytes, more than the limit of ${maxBytes}` };
      continue;
    }
    const version = `${Math.trunc(stat.mtimeMs)}:${stat.size}:${permissions.versionPart(stat)}`;
    yield {
      key: rel,
      version,
      load: async (): Promise<SourceDocument> => {
        const bytes = await readFile(abs);
        if (bytes.byteLength > maxBytes) throw new Error(`the file has grown over the limit of ${maxBytes} bytes`);
        const name = basename(rel);
        return {
          title: name,
          file_type: 'file',
          path: `${crumb}/${rel}`,
          path_preview: previewUrl(s.url_template, rel, abs),
          last_modified: new Date(Math.trunc(stat.mtimeMs)).toISOString(),
          body: { mime_type: mediaTypeOf(name), bytes },
          permissions: permissions.of(rel, stat),
        };
      },
    };
  }
}

/** The media type of a file name from the suffix table; unknown: octet-stream (content sniffed). */
function mediaTypeOf(name: string): string {
  return lookupFileType(undefined, name)?.mediaTypes[0] ?? 'application/octet-stream';
}

function previewUrl(template: string, rel: string, abs: string): string {
  if (!template) return pathToFileURL(abs).href;
  const path = rel.split('/').map(encodeURIComponent).join('/');
  return template.replaceAll('{path}', path).replaceAll('{name}', encodeURIComponent(basename(rel)));
}

export const filesConnector: ConnectorModule<FilesSettings> = {
  type: 'fileshares',
  category: 'fileshares',
  description: 'files of a folder tree: local, or an SMB or NFS share mounted on the server',
  settings: FilesSettings,
  items,
};
