/**
 * Builds the browser assets of the pages: the stylesheet and one ES module
 * per interactive page, bundled and minified by esbuild from
 * src/web/styles/ and src/web/client/. Runs at server start when the server
 * runs from source (`npm start`), and at build time for the single binary
 * (src/build/binary.ts), which embeds the result. Output: file name ->
 * content, names without hashes (store.ts adds them).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = fileURLToPath(new URL('../', import.meta.url));

/** Browser entry modules: src/web/client/<name>.ts -> <name>.js. */
export const CLIENT_ENTRIES = ['page', 'search', 'chat'] as const;
export const STYLESHEET = 'app.css';
export const ICON = 'icon.svg';

export type AssetFiles = Record<string, string>;

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
