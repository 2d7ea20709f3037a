// Bundle each hook (hooks/*.ts) and the CLI into one self-contained ESM file in dist/. Output is
// deterministic so CI can rebuild and fail on any difference with the committed dist/.
// Each hook's timeout (hooks.json) is compiled in, so its internal deadline always stays below it.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { build } from 'esbuild';

const hooksJson = JSON.parse(readFileSync('hooks.json', 'utf8'));
const timeouts = new Map();
for (const groups of Object.values(hooksJson.hooks)) {
  for (const group of groups) {
    for (const hook of group.hooks) {
      const file = /dist\/([a-z-]+)\.mjs/.exec(hook.command)?.[1];
      if (file) timeouts.set(file, hook.timeout * 1000);
    }
  }
}

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  format: 'esm',
  outExtension: { '.js': '.mjs' },
  legalComments: 'none',
  // Parsing is part of every tool call's cost: minified bundles start ~10 ms faster. Names are kept
  // so the stack traces in our log stay readable.
  minify: true,
  keepNames: true,
  logLevel: 'warning',
};

// Build into a staging folder, then rename each file into dist/: a hook that runs meanwhile (a test,
// a live session using this checkout) sees the old file or the new one, never none.
const staging = `dist.build-${process.pid}`;
rmSync(staging, { recursive: true, force: true });
const hookFiles = readdirSync('hooks').filter((f) => f.endsWith('.ts'));
for (const file of hookFiles) {
  const name = basename(file, '.ts');
  const timeout = timeouts.get(name);
  if (timeout === undefined) throw new Error(`build: hooks/${file} is not bound in hooks.json`);
  await build({ ...common, entryPoints: [`hooks/${file}`], outfile: `${staging}/${name}.mjs`, define: { __CTXL_HOOK_TIMEOUT_MS__: String(timeout) } });
}
await build({ ...common, entryPoints: ['lib/cli/main.ts'], outfile: `${staging}/cli.mjs`, banner: { js: '#!/usr/bin/env node' } });

mkdirSync('dist', { recursive: true });
const built = new Set(readdirSync(staging));
for (const file of built) renameSync(`${staging}/${file}`, `dist/${file}`);
for (const file of readdirSync('dist')) if (!built.has(file)) rmSync(`dist/${file}`, { recursive: true, force: true });
rmSync(staging, { recursive: true, force: true });
