/**
 * The browser assets of the pages: built here, served by src/web/assets/store.ts.
 * `buildWebAssets` bundles and minifies with esbuild the stylesheet and one ES
 * module per interactive page from src/web/styles/ and src/web/client/. It runs
 * at server start when the server runs from source (`npm start`), and at build
 * time for the single binary (binary.ts), which embeds the result as the SEA
 * asset WEB_ASSETS_SEA. Output: file name -> content, names without hashes
 * (the store adds them).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = fileURLToPath(new URL('../web/', import.meta.url));

/** Browser entry modules: src/web/client/<name>.ts -> <name>.js. */
export const CLIENT_ENTRIES = ['page', 'search', 'chat', 'admin'] as const;
export const STYLESHEET = 'app.css';
export const ICON = 'icon.svg';

export type AssetFiles = Record<string, string>;

/** Name of the SEA asset holding the built files as one JSON object (name -> content). */
export const WEB_ASSETS_SEA = 'web-assets.json';

export interface Asset {
  body: Uint8Array;
  br: Uint8Array;
  gzip: Uint8Array;
  type: string;
}

/** The assets as the server serves them (src/web/assets/store.ts). */
export interface WebAssets {
  /** Served path of a file by its plain name (`search.js` -> `/assets/search.3f2a9c1d.js`). */
  url(name: string): string;
  /** The asset served at a path under /assets/, if any. */
  get(path: string): Asset | undefined;
}

export async function buildWebAssets(): Promise<AssetFiles> {
  const esbuild = await import('esbuild');
  const scripts = await esbuild.build({
    entryPoints: CLIENT_ENTRIES.map((name) => join(WEB, 'client', `${name}.ts`)),
    bundle: true,
    format: 'esm',
    target: ['chrome110', 'firefox115', 'safari16'],
    minify: true,
    write: false,
    outdir: '/out',
    logLevel: 'silent',
    legalComments: 'none',
  });
  const styles = await esbuild.build({
    entryPoints: [join(WEB, 'styles', STYLESHEET)],
    bundle: true,
    minify: true,
    write: false,
    outdir: '/out',
    logLevel: 'silent',
  });
  const files: AssetFiles = {};
  for (const out of [...scripts.outputFiles, ...styles.outputFiles]) {
    files[out.path.slice('/out/'.length)] = out.text;
  }
  files[ICON] = await readFile(join(WEB, 'styles', ICON), 'utf8');
  return files;
}
