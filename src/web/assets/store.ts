/**
 * The browser assets as the server serves them: each file under a name with
 * its content hash (`/assets/search.3f2a9c1d.js`), so it can be cached for a
 * year (`immutable`), precompressed with Brotli and gzip. From source, the
 * files are built at start (src/build/web-assets.ts); in the single binary they come from the
 * embedded SEA asset `WEB_ASSETS_SEA`, a JSON object of name -> content.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { buildWebAssets, WEB_ASSETS_SEA, type Asset, type AssetFiles, type WebAssets } from '../../build/web-assets.ts';

export type { WebAssets };

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

export function assetStore(files: AssetFiles): WebAssets {
  const urls = new Map<string, string>();
  const byPath = new Map<string, Asset>();
  for (const [name, text] of Object.entries(files)) {
    const body = new TextEncoder().encode(text);
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
    const dot = name.lastIndexOf('.');
    const path = `/assets/${name.slice(0, dot)}.${hash}${name.slice(dot)}`;
    urls.set(name, path);
    byPath.set(path, {
      body,
      br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzip: gzipSync(body, { level: 9 }),
      type: TYPES[name.slice(dot + 1)] ?? 'application/octet-stream',
    });
  }
  return {
    url(name) {
      const url = urls.get(name);
      if (!url) throw new Error(`no web asset named ${name}`);
      return url;
    },
    get: (path) => byPath.get(path),
  };
}

function embeddedFiles(): AssetFiles | undefined {
  try {
    const sea = createRequire(import.meta.url)('node:sea') as typeof import('node:sea');
    return sea.isSea() ? (JSON.parse(sea.getAsset(WEB_ASSETS_SEA, 'utf8')) as AssetFiles) : undefined;
  } catch {
    return undefined;
  }
}

/** The assets of this process: embedded in the binary, else built from source now. */
export async function loadWebAssets(): Promise<WebAssets> {
  return assetStore(embeddedFiles() ?? (await buildWebAssets()));
}
