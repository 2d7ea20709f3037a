// `ctxl install [--plugin] [--dry-run]` and `ctxl uninstall`. A plain install copies the runtime to
// <config>/context-lifecycle/ (so it survives deleting the clone), commands and skills next to the
// user's, and merges hook entries with absolute paths into settings.json: idempotent, atomic, with a
// backup, keeping every other key. Uninstall leaves settings.json as it would be without us.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { dirname, join, relative, sep } from 'node:path';
import * as z from 'zod/mini';
import {
  copyTree,
  ensureDir,
  listDir,
  listFiles,
  pathExists,
  readTextFile,
  realPathOr,
  removePath,
  renamePath,
  statSafe,
  writeFileAtomic,
} from '../runtime/store.ts';
import {
  addOurHooks,
  countOurHooks,
  deepEqual,
  detectIndent,
  type HooksByEvent,
  hooksShapeProblem,
  ourEnabledPlugins,
  removeOurHooks,
  resolveHooks,
} from './settings-merge.ts';

export const RUNTIME_NAME = 'context-lifecycle';
export const MARKETPLACE = 'context-lifecycle';
export const PLUGIN_ID = `context-lifecycle@${MARKETPLACE}`;
const MANIFEST_VERSION = 1;
// What a user needs at run time: no sources, no toolchain, no lockfile (a lockfile would make
// `claude plugin install` run `npm ci` in its copy).
const RUNTIME_ITEMS = ['dist', 'commands', 'skills', 'hooks.json', '.claude-plugin', 'LICENSE', 'README.md'];

const manifestSchema = z.looseObject({
  version: z.literal(MANIFEST_VERSION),
  installedAt: z.string(),
  packageVersion: z.string(),
  /** settings.json as it was before we touched it; null when it did not exist. */
  settingsOriginal: z.nullable(z.string()),
  files: z.array(z.object({ path: z.string(), sha256: z.string() })),
  /** Folders the install created (commands/, skills/<name>/, …): removed again when empty. */
  createdDirs: z.optional(z.array(z.string())),
});
type Manifest = z.infer<typeof manifestSchema>;

export interface InstallContext {
  sourceRoot: string;
  configDir: string;
  dryRun: boolean;
  now: Date;
  say: (line: string) => void;
}

export class InstallError extends Error {}

type Obj = Record<string, unknown>;

export function runtimeDir(configDir: string): string {
  return join(configDir, RUNTIME_NAME);
}

export function readSettings(configDir: string): { text: string | undefined; value: Obj } {
  const file = join(configDir, 'settings.json');
  const text = readTextFile(file);
  if (text === undefined || text.trim() === '') return { text, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InstallError(`${file} is not valid JSON (${(error as Error).message}); fix it first, nothing was changed`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InstallError(`${file} is not a JSON object; nothing was changed`);
  return { text, value: value as Obj };
}

function readManifest(configDir: string): Manifest | undefined {
  const text = readTextFile(join(runtimeDir(configDir), 'install.json'));
  if (text === undefined) return undefined;
  try {
    const r = manifestSchema.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Why the runtime folder must not be replaced or deleted: a source checkout (a clone placed there), or
 * a folder holding something that is not an install of ours. Undefined when it is ours or absent.
 */
function foreignRuntimeDir(target: string): string | undefined {
  if (!pathExists(target) || listDir(target).length === 0) return undefined;
  // A clone or an unpacked archive of the sources (the runtime copy has neither .git nor lib/).
  if (pathExists(join(target, '.git')) || pathExists(join(target, 'lib'))) return `${target} is a source checkout`;
  const ours = pathExists(join(target, 'install.json')) || (pathExists(join(target, 'dist', 'cli.mjs')) && pathExists(join(target, 'hooks.json')));
  return ours ? undefined : `${target} exists and is not an install of context-lifecycle`;
}

/** Why Node could not run our hooks from `dir`, or undefined: on POSIX it percent-encodes a backslash, then refuses the path. */
export function unrunnablePath(dir: string): string | undefined {
  if (sep !== '/' || !dir.includes('\\')) return undefined;
  return `${dir} holds a backslash, and Node runs no ES module from such a path (ERR_INVALID_MODULE_SPECIFIER); use a config folder without one`;
}

export function installPlain(ctx: InstallContext): void {
  const { sourceRoot, configDir, dryRun, say } = ctx;
  const target = runtimeDir(configDir);
  const unrunnable = unrunnablePath(target);
  if (unrunnable !== undefined) throw new InstallError(`${unrunnable}, nothing was changed`);
  for (const item of ['dist/cli.mjs', 'hooks.json', 'commands', 'skills']) {
    if (!pathExists(join(sourceRoot, item)))
      throw new InstallError(`${join(sourceRoot, item)} is missing: run this from a complete checkout (or run npm run build)`);
  }
  const settings = readSettings(configDir);
  const shape = hooksShapeProblem(settings.value);
  if (shape !== undefined)
    throw new InstallError(`${join(configDir, 'settings.json')}: ${shape}, which Claude Code cannot read; fix it first, nothing was changed`);
  const plugins = ourEnabledPlugins(settings.value);
  if (plugins.length > 0) {
    throw new InstallError(`already installed as a plugin (${plugins.join(', ')}); every hook would run twice. Run \`ctxl uninstall\` first`);
  }
  const previous = readManifest(configDir);
  const hooksJson = JSON.parse(readTextFile(join(sourceRoot, 'hooks.json')) ?? '{}') as { hooks: HooksByEvent };
  const ours = resolveHooks(hooksJson.hooks, target);
  const next = addOurHooks(settings.value, ours);
  const alreadyOurs = countOurHooks(settings.value).size > 0;
  const settingsOriginal = alreadyOurs ? (previous?.settingsOriginal ?? null) : (settings.text ?? null);

  // 1. The runtime: copy into a fresh folder, then swap it in, so a running hook never sees half a copy.
  const sameTree = relative(sourceRoot, target) === '';
  const foreign = sameTree ? undefined : foreignRuntimeDir(target);
  if (foreign !== undefined) throw new InstallError(`${foreign}; the runtime is copied there: move it away, nothing was changed`);
  if (!sameTree) say(`${dryRun ? 'would copy' : 'copy'} runtime → ${target}`);
  // 2. Commands and skills, with ${CLAUDE_PLUGIN_ROOT} made absolute (plain installs have no plugin root).
  const files: Array<{ path: string; text: string }> = [];
  for (const name of listDir(join(sourceRoot, 'commands')).filter((f) => f.endsWith('.md'))) {
    files.push({ path: join(configDir, 'commands', name), text: withRoot(readTextFile(join(sourceRoot, 'commands', name)) ?? '', target) });
  }
  for (const skill of listDir(join(sourceRoot, 'skills'))) {
    for (const name of listDir(join(sourceRoot, 'skills', skill)).filter((f) => f.endsWith('.md'))) {
      files.push({ path: join(configDir, 'skills', skill, name), text: withRoot(readTextFile(join(sourceRoot, 'skills', skill, name)) ?? '', target) });
    }
  }
  const ownedBefore = new Map((previous?.files ?? []).map((f) => [f.path, f.sha256]));
  for (const f of files) {
    const existing = readTextFile(f.path);
    if (existing !== undefined && existing !== f.text && ownedBefore.get(f.path) !== sha256(existing)) {
      throw new InstallError(`${f.path} exists and is not ours; move it away or rename it, nothing was changed`);
    }
    say(`${dryRun ? 'would write' : 'write'} ${f.path}`);
  }
  const added = Object.entries(ours).map(([event, groups]) => `${event}×${groups.length}`);
  say(`${dryRun ? 'would merge' : 'merge'} hooks into ${join(configDir, 'settings.json')}: ${added.join(', ')}`);
  if (dryRun) return;

  const createdDirs = new Set(previous?.createdDirs ?? []);
  for (const f of files) {
    for (let dir = dirname(f.path); dir.startsWith(configDir) && dir !== configDir; dir = dirname(dir)) {
      if (!pathExists(dir)) createdDirs.add(dir);
    }
  }
  ensureDir(configDir);
  if (!sameTree) stageRuntime(sourceRoot, target);
  for (const f of files) {
    ensureDir(join(f.path, '..'));
    writeFileAtomic(f.path, f.text, { mode: 0o644 });
  }
  // The backup is the file as it was before any install of ours: a reinstall leaves it alone.
  writeSettings(configDir, settings.text, next, !alreadyOurs);
  const manifest: Manifest = {
    version: MANIFEST_VERSION,
    installedAt: ctx.now.toISOString(),
    packageVersion: packageVersion(sourceRoot),
    settingsOriginal,
    files: files.map((f) => ({ path: f.path, sha256: sha256(f.text) })),
    createdDirs: [...createdDirs],
  };
  writeFileAtomic(join(target, 'install.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o644 });
  say(`installed context-lifecycle ${manifest.packageVersion}; start a new Claude Code session to use it`);
}

/** How long files an install replaced stay, for a hook that started just before (see stageRuntime). */
const SUPERSEDED_GRACE_MS = 1000;

/**
 * Copy the runtime into a staging folder, then move each file over its old copy with a rename. The copy gets a minimal package.json
 * (name and version only): no dependencies to install, nothing for `npm ci` to do.
 */
function stageRuntime(sourceRoot: string, target: string): void {
  const staging = `${target}.new-${process.pid}`;
  const upgrade = pathExists(target);
  removePath(staging);
  ensureDir(staging, 0o755);
  // A refusal part way (EACCES, ENOSPC) leaves no staging folder behind. An upgrade keeps the files
  // already moved (each rename is atomic, old and new programs coexist) and the next install
  // finishes it; a first install removes its half copy, which nothing would own.
  try {
    for (const item of RUNTIME_ITEMS) {
      const from = join(sourceRoot, item);
      const stat = statSafe(from);
      if (stat === undefined) continue;
      if (stat.isDirectory()) copyTree(from, join(staging, item));
      else writeFileAtomic(join(staging, item), readTextFile(from) ?? '', { mode: 0o644 });
    }
    const pkg = { name: 'context-lifecycle', version: packageVersion(sourceRoot), private: true, license: 'MIT' };
    writeFileAtomic(join(staging, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`, { mode: 0o644 });
    // File by file, each rename atomic: a hook starting meanwhile finds its file, old or new, never none.
    // Deepest first: dist/programs/<name>-<hash>.js is in place before the dist/<name>.mjs that runs it.
    const staged = new Set(listFiles(staging));
    const depth = (rel: string) => rel.split(/[\\/]/).length;
    for (const rel of [...staged].sort((a, b) => depth(b) - depth(a) || (a < b ? -1 : a > b ? 1 : 0))) {
      ensureDir(dirname(join(target, rel)), 0o755);
      renamePath(join(staging, rel), join(target, rel));
    }
    const superseded = listFiles(target).filter((rel) => !staged.has(rel) && rel !== 'install.json');
    // A hook that read an old loader just before its rename opens that loader's program a few ms
    // later: old files go after a pause, not at once.
    if (superseded.length > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SUPERSEDED_GRACE_MS);
    for (const rel of superseded) removePath(join(target, rel));
  } catch (error) {
    if (!upgrade) removePath(target);
    throw error;
  } finally {
    removePath(staging);
  }
}

export function uninstall(ctx: Omit<InstallContext, 'sourceRoot'>): void {
  const { configDir, dryRun, say } = ctx;
  const target = runtimeDir(configDir);
  const manifest = readManifest(configDir);
  const settings = readSettings(configDir);
  const { removed } = removeOurHooks(settings.value);
  if (removed > 0) say(`${dryRun ? 'would remove' : 'remove'} ${removed} hook entries from ${join(configDir, 'settings.json')}`);
  for (const f of manifest?.files ?? []) {
    const text = readTextFile(f.path);
    if (text === undefined) continue;
    if (sha256(text) !== f.sha256) {
      say(`keep ${f.path}: changed since install`);
      continue;
    }
    say(`${dryRun ? 'would delete' : 'delete'} ${f.path}`);
    if (!dryRun) removePath(f.path);
  }
  if (!dryRun) {
    // Deepest first, and only when empty: anything the user put there stays.
    const dirs = [...(manifest?.createdDirs ?? [])].sort((a, b) => b.length - a.length);
    for (const dir of dirs) if (pathExists(dir) && listDir(dir).length === 0) removePath(dir);
  }
  const plugins = ourEnabledPlugins(settings.value);
  if (plugins.length > 0) say(`${dryRun ? 'would run' : 'run'} claude plugin uninstall ${plugins.join(' ')}`);
  // A clone placed at the runtime's path and installed from there, or a folder that is not ours:
  // only our manifest goes, never the folder.
  const keepTarget = foreignRuntimeDir(target);
  if (keepTarget !== undefined) say(`keep ${target}: ${keepTarget.slice(target.length + 1)}`);
  else if (pathExists(target)) say(`${dryRun ? 'would delete' : 'delete'} ${target}`);
  if (dryRun) return;

  if (plugins.length > 0) {
    const claude = findClaude();
    if (claude === undefined) say('claude not found on PATH (or CLAUDE_BIN): run `claude plugin uninstall context-lifecycle` yourself');
    else {
      for (const id of plugins) runClaude(claude, ['plugin', 'uninstall', id], say);
      runClaude(claude, ['plugin', 'marketplace', 'remove', MARKETPLACE], say, true);
    }
  }
  restoreSettings(configDir, manifest?.settingsOriginal);
  if (keepTarget === undefined) removePath(target);
  else if (manifest !== undefined) removePath(join(target, 'install.json'));
  say('uninstalled context-lifecycle (your archive under the data dir is kept; delete it by hand if you want it gone)');
}

/**
 * Leave settings.json as it would be without us: drop our hook handlers, and the empty plugin maps
 * `claude plugin uninstall` leaves behind when they were not there before. When the result equals
 * the file as it was before the install, write its original bytes back (or remove it if there was none).
 */
function restoreSettings(configDir: string, original: string | null | undefined): void {
  const link = join(configDir, 'settings.json');
  // A settings.json that is a link (into a dotfiles repo) is written through, never replaced.
  const file = realPathOr(link);
  const current = readSettings(configDir);
  const before = original === undefined || original === null ? {} : (parseOr(original) as Obj | undefined);
  const { settings: cleaned } = removeOurHooks(current.value);
  for (const key of ['enabledPlugins', 'extraKnownMarketplaces']) {
    const v = cleaned[key];
    if (before !== undefined && !(key in before) && v !== null && typeof v === 'object' && Object.keys(v).length === 0) delete cleaned[key];
  }
  const restored = original !== undefined && original !== null && deepEqual(before, cleaned);
  if (restored) writeFileAtomic(file, original, { mode: (statSafe(file)?.mode ?? 0o600) & 0o777 });
  else if (original === null && Object.keys(cleaned).length === 0) removePath(file);
  else if (!deepEqual(cleaned, current.value)) writeSettings(configDir, current.text, cleaned, false);
  // The install's backup holds what was just restored; keep it only when we could not restore exactly.
  if (restored || original === null) removePath(`${link}.ctxl-backup`);
}

export function installPlugin(ctx: InstallContext): void {
  const { sourceRoot, configDir, dryRun, say } = ctx;
  const target = runtimeDir(configDir);
  const unrunnable = unrunnablePath(target);
  if (unrunnable !== undefined) throw new InstallError(`${unrunnable}, nothing was changed`);
  const settings = readSettings(configDir);
  if (countOurHooks(settings.value).size > 0) {
    throw new InstallError('already installed into settings.json; every hook would run twice. Run `ctxl uninstall` first');
  }
  const claude = findClaude();
  if (claude === undefined) throw new InstallError('--plugin needs the claude binary: put it on PATH or set CLAUDE_BIN');
  const enabled = ourEnabledPlugins(settings.value).length > 0;
  // The marketplace is a clean runtime copy, not this checkout: Claude Code copies the whole folder
  // into its plugin cache and runs hooks from the source folder, so the clone can then be deleted.
  const foreign = relative(sourceRoot, target) === '' ? undefined : foreignRuntimeDir(target);
  if (foreign !== undefined) throw new InstallError(`${foreign}; the runtime is copied there: move it away, nothing was changed`);
  say(`${dryRun ? 'would copy' : 'copy'} runtime → ${target}`);
  if (!enabled) say(`${dryRun ? 'would run' : 'run'} claude plugin marketplace add ${target}; claude plugin install ${PLUGIN_ID}`);
  if (dryRun) return;
  const previous = readManifest(configDir);
  ensureDir(configDir);
  stageRuntime(sourceRoot, target);
  if (!enabled) {
    runClaude(claude, ['plugin', 'marketplace', 'add', target], say);
    runClaude(claude, ['plugin', 'install', PLUGIN_ID], say);
  }
  const manifest: Manifest = {
    version: MANIFEST_VERSION,
    installedAt: ctx.now.toISOString(),
    packageVersion: packageVersion(sourceRoot),
    settingsOriginal: enabled ? (previous?.settingsOriginal ?? null) : (settings.text ?? null),
    files: [],
  };
  writeFileAtomic(join(target, 'install.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o644 });
  say(`${enabled ? 'updated' : 'installed'} context-lifecycle ${manifest.packageVersion} as a plugin; start a new Claude Code session to use it`);
}

export function findClaude(): string | undefined {
  const fromEnv = process.env.CLAUDE_BIN;
  if (fromEnv !== undefined && fromEnv !== '') return pathExists(fromEnv) ? fromEnv : undefined;
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir === '') continue;
    const candidate = join(dir, 'claude');
    if (pathExists(candidate)) return candidate;
  }
  return undefined;
}

function runClaude(claude: string, args: string[], say: (line: string) => void, tolerate = false): void {
  const r = spawnSync(claude, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
  if (out !== '') say(out.split('\n').slice(-3).join(' | '));
  if (r.status !== 0 && !tolerate) throw new InstallError(`claude ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
}

function writeSettings(configDir: string, previousText: string | undefined, value: Obj, backup = true): void {
  const link = join(configDir, 'settings.json');
  const file = realPathOr(link); // a link is written through: its target gets the new text
  const mode = (statSafe(file)?.mode ?? 0o600) & 0o777;
  if (backup && previousText !== undefined) writeFileAtomic(`${link}.ctxl-backup`, previousText, { mode: 0o600 });
  writeFileAtomic(file, `${JSON.stringify(value, null, detectIndent(previousText))}\n`, { mode });
}

function withRoot(text: string, root: string): string {
  return text.replaceAll('${CLAUDE_PLUGIN_ROOT}', root);
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function packageVersion(root: string): string {
  try {
    return (JSON.parse(readTextFile(join(root, 'package.json')) ?? '{}') as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
