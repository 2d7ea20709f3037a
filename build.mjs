// Bundle each hook (hooks/*.ts) and the CLI into one self-contained ESM file in dist/. Output is
// deterministic so CI can rebuild and fail on any difference with the committed dist/.
// Each hook's timeout (hooks.json) is compiled in, so its internal deadline always stays below it.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname } from 'node:path';
import { build } from 'esbuild';

// Builtins through process.getBuiltinModule() instead of `import … from 'node:fs'`: an ESM import of
// a builtin makes Node build its ES facade, which reads every export, lazy ones included (node:fs
// loads its streams for ReadStream). That cost ~20 ms of every hook's and the CLI's start. Each
// name becomes a small forwarding function (or a value), and esbuild drops the ones not used; a
// module is loaded when first called.
const requireBuiltin = createRequire(import.meta.url);
const builtinsByGetter = {
  name: 'builtins-by-getter',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: 'builtin' }));
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => {
      const mod = requireBuiltin(args.path);
      // Loaded on first use: the CLI's install code needs node:crypto, a recall never does.
      const lines = [`let loaded; const m = () => (loaded ??= process.getBuiltinModule(${JSON.stringify(args.path)}));`, 'export default /* @__PURE__ */ m();'];
      for (const key of Object.keys(mod).sort()) {
        if (!/^[A-Za-z_$][\w$]*$/.test(key) || key === 'default') continue;
        const desc = Object.getOwnPropertyDescriptor(mod, key);
        if (desc?.get !== undefined || typeof desc?.value === 'function')
          lines.push(`export function ${key}(...a) { return new.target ? new (m().${key})(...a) : m().${key}(...a); }`);
        else lines.push(`export const ${key} = /* @__PURE__ */ (() => m().${key})();`);
      }
      return { contents: lines.join('\n'), loader: 'js' };
    });
  },
};

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
  plugins: [builtinsByGetter],
};

// Each program is built twice. First as a function's source (an IIFE bundle wrapped in
// `(function (moduleUrl) { … })`), then as the small ES module that Claude Code runs: it reads that
// source from the end of its own file, where it sits as line comments after PROGRAM_MARK (V8 skips
// a comment faster than it scans a string literal: ~1.5 ms of a 100 KB program at every start),
// and runs it through V8's code cache (lib/runtime/code-cache.ts), so a start deserializes the
// compiled code of an earlier run instead of compiling the bundle again.
const MODULE_URL = '__ctxlModuleUrl';
// The loader holds this text between quotes; the file holds it on a line of its own.
const PROGRAM_MARK = '//@ctxl-program';
async function cachedProgram({ entry, name, outfile, define = {}, banner, hook, writeWithinMs }) {
  const body = await build({ ...common, format: 'iife', write: false, entryPoints: [entry], define: { ...define, 'import.meta.url': MODULE_URL } });
  const source = `(function (${MODULE_URL}) {${body.outputFiles[0].text}\n})`;
  // Each line goes behind `//`, and comes back whole only if \n is its only line break.
  if (/[\r\u2028\u2029]/.test(source)) throw new Error(`build: ${name}: the program holds a line break other than \\n`);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const contents = `import { runCached } from './lib/runtime/code-cache.ts';\nrunCached(${JSON.stringify({ name, hash, hook, writeWithinMs })}, import.meta.url, ${JSON.stringify(PROGRAM_MARK)});\n`;
  const loader = await build({
    ...common,
    write: false,
    stdin: { contents, resolveDir: '.', sourcefile: `${name}.entry.ts`, loader: 'ts' },
    outfile,
    ...(banner ? { banner } : {}),
  });
  const program = source
    .split('\n')
    .map((line) => `//${line}`)
    .join('\n');
  mkdirSync(dirname(outfile), { recursive: true });
  writeFileSync(outfile, `${loader.outputFiles[0].text.trimEnd()}\n${PROGRAM_MARK}\n${program}\n`);
}

// Build into a staging folder, then rename each file into dist/: a hook that runs meanwhile (a test,
// a live session using this checkout) sees the old file or the new one, never none.
const staging = `dist.build-${process.pid}`;
rmSync(staging, { recursive: true, force: true });
const hookFiles = readdirSync('hooks').filter((f) => f.endsWith('.ts'));
for (const file of hookFiles) {
  const name = basename(file, '.ts');
  const timeout = timeouts.get(name);
  if (timeout === undefined) throw new Error(`build: hooks/${file} is not bound in hooks.json`);
  // A hook that ran for half its timeout is near its deadline: it leaves the cache for the next run.
  await cachedProgram({
    entry: `hooks/${file}`,
    name,
    outfile: `${staging}/${name}.mjs`,
    define: { __CTXL_HOOK_TIMEOUT_MS__: String(timeout) },
    hook: true,
    writeWithinMs: timeout / 2,
  });
}
await cachedProgram({
  entry: 'lib/cli/main.ts',
  name: 'cli',
  outfile: `${staging}/cli.mjs`,
  banner: { js: '#!/usr/bin/env node' },
  hook: false,
  writeWithinMs: Number.MAX_SAFE_INTEGER,
});
// The CLI's ingest counts index terms on a worker thread; the worker is its own small bundle.
await build({ ...common, entryPoints: ['lib/index/segment-worker.ts'], outfile: `${staging}/segment-worker.mjs` });

mkdirSync('dist', { recursive: true });
const built = new Set(readdirSync(staging));
for (const file of built) renameSync(`${staging}/${file}`, `dist/${file}`);
for (const file of readdirSync('dist')) if (!built.has(file)) rmSync(`dist/${file}`, { recursive: true, force: true });
rmSync(staging, { recursive: true, force: true });
