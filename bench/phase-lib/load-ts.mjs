// Loads a TypeScript module of lib/ into the bench: bundled by esbuild (a dev dependency) into a
// temporary .mjs file, then imported. The bench measures the sources, not a stale dist/.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `rel` is relative to the repository root, e.g. 'lib/phase/tracker.ts'. */
export async function loadTs(rel) {
  const result = await build({
    entryPoints: [join(ROOT, rel)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
  });
  const dir = mkdtempSync(join(tmpdir(), 'ctxl-bench-'));
  const file = join(dir, 'module.mjs');
  writeFileSync(file, result.outputFiles[0].text);
  return import(pathToFileURL(file).href);
}
