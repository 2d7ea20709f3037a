// Bundle each hook (hooks/*.ts) and the CLI into dist/: a small ES module per program (what Claude
// Code runs) and its bundled program in dist/programs/. Output is deterministic so CI can rebuild and
// fail on any difference with the committed dist/.
// Each hook's timeout (hooks.json) is compiled in, so its internal deadline always stays below it.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
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
// `(function (moduleUrl) { … })`), written to programs/<name>-<hash>.js; then as the small ES
// module that Claude Code runs, which reads that file and runs it through V8's code cache
// (lib/runtime/code-cache.ts), so a start deserializes the compiled code of an earlier run instead
// of compiling the bundle again. The hash in the name pairs each loader with its own program.
const MODULE_URL = '__ctxlModuleUrl';
const PROGRAMS = 'programs';
async function cachedProgram({ entry, name, outfile, define = {}, banner, hook, writeWithinMs }) {
  const program = await buildProgram({ entry, name, outfile, define, hook, writeWithinMs });
  await writeLoader({ name, outfile, banner, contents: `runCached(${JSON.stringify(program)}, import.meta.url);\n` });
}

/** Build a program into programs/<name>-<hash>.js; what its loader passes to runCached. */
async function buildProgram({ entry, name, outfile, define = {}, hook, writeWithinMs }) {
  const body = await build({ ...common, format: 'iife', write: false, entryPoints: [entry], define: { ...define, 'import.meta.url': MODULE_URL } });
  const source = `(function (${MODULE_URL}) {${body.outputFiles[0].text}\n})\n`;
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  mkdirSync(join(dirname(outfile), PROGRAMS), { recursive: true });
  writeFileSync(join(dirname(outfile), PROGRAMS, `${name}-${hash}.js`), source);
  return { name, hash, hook, writeWithinMs };
}

/** The small ES module Claude Code (or a user) runs: `contents` after the import of runCached. */
async function writeLoader({ name, outfile, banner, contents }) {
  const loader = await build({
    ...common,
    write: false,
    stdin: { contents: `import { runCached } from './lib/runtime/code-cache.ts';\n${contents}`, resolveDir: '.', sourcefile: `${name}.entry.ts`, loader: 'ts' },
    outfile,
    ...(banner ? { banner } : {}),
  });
  writeFileSync(outfile, loader.outputFiles[0].text);
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
// The CLI is two programs behind one loader: the search commands (lib/cli/search-command-names.ts)
// run a program with only what they need, half the code of the whole CLI to load and initialise.
const cliOptions = { outfile: `${staging}/cli.mjs`, hook: false, writeWithinMs: Number.MAX_SAFE_INTEGER };
const cliWhole = await buildProgram({ ...cliOptions, entry: 'lib/cli/main.ts', name: 'cli' });
const cliSearch = await buildProgram({ ...cliOptions, entry: 'lib/cli/search-main.ts', name: 'cli-search' });
await writeLoader({
  name: 'cli',
  outfile: `${staging}/cli.mjs`,
  banner: { js: '#!/usr/bin/env node' },
  contents:
    "import { SEARCH_COMMANDS } from './lib/cli/search-command-names.ts';\n" +
    `runCached(SEARCH_COMMANDS.includes(process.argv[2] ?? '') ? ${JSON.stringify(cliSearch)} : ${JSON.stringify(cliWhole)}, import.meta.url);\n`,
});
// The CLI's ingest counts index terms on a worker thread; the worker is its own small bundle.
await build({ ...common, entryPoints: ['lib/index/segment-worker.ts'], outfile: `${staging}/${PROGRAMS}/segment-worker.mjs` });

// Programs first, then the loaders that name them; then what the last build left.
mkdirSync(`dist/${PROGRAMS}`, { recursive: true });
const builtPrograms = new Set(readdirSync(`${staging}/${PROGRAMS}`));
for (const file of builtPrograms) renameSync(`${staging}/${PROGRAMS}/${file}`, `dist/${PROGRAMS}/${file}`);
const built = new Set(readdirSync(staging).filter((f) => f !== PROGRAMS));
for (const file of built) renameSync(`${staging}/${file}`, `dist/${file}`);
for (const file of readdirSync('dist')) if (!built.has(file) && file !== PROGRAMS) rmSync(`dist/${file}`, { recursive: true, force: true });
// A hook that read an old loader just before its rename (a session running from this checkout)
// opens that loader's program a few ms later: old programs go after a pause.
const oldPrograms = readdirSync(`dist/${PROGRAMS}`).filter((file) => !builtPrograms.has(file));
if (oldPrograms.length > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
for (const file of oldPrograms) rmSync(`dist/${PROGRAMS}/${file}`, { recursive: true, force: true });
rmSync(staging, { recursive: true, force: true });
