// A small program bundled (esbuild) from lib/ sources for the duration of a test file, so a test can
// run a runtime module in a process of its own, with the stdin, flags and environment it chooses.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';
import { removeTree } from '../../support/remove-tree.ts';
import { repoRoot } from './paths.ts';

/** Call at the top of a test file; the returned function gives the bundled probe's path. */
export function useProbe(name: string, source: string): () => string {
  let dir = '';
  let file = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), `ctxl-${name}-probe-`));
    file = join(dir, 'probe.mjs');
    buildSync({
      stdin: { contents: source, resolveDir: repoRoot, loader: 'ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: file,
      logLevel: 'silent',
    });
  });
  afterAll(() => removeTree(dir));
  return () => file;
}
