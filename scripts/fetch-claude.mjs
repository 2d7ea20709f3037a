#!/usr/bin/env node
// Fetch the pinned Claude Code native binary for the end-to-end tests (never a package.json
// dependency: users of the plugin must not pull a 400 MB binary). It installs the platform package
// `@anthropic-ai/claude-code-<platform>@<version>` into `.cache/claude-code/<version>/` inside the
// repo on first use, and reuses it afterwards when `claude --version` reports the pinned version.
//
//   node scripts/fetch-claude.mjs            prints the binary's absolute path
//   import { fetchClaude } from './fetch-claude.mjs'; fetchClaude() → { binary, version, cached }
//
// On failure it exits 1 with one line on stderr saying what went wrong.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const CLAUDE_VERSION = '2.1.332';
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export class FetchClaudeError extends Error {}

/** True when this Linux uses musl (Alpine and friends), which needs the `-musl` build. */
function isMusl() {
  if (process.platform !== 'linux') return false;
  const report = process.report?.getReport?.();
  const header = report && typeof report === 'object' ? report.header : undefined;
  if (header && typeof header === 'object' && 'glibcVersionRuntime' in header) return false;
  try {
    return readdirSync('/lib').some((f) => f.startsWith('ld-musl-'));
  } catch {
    return false;
  }
}

/** The npm platform package for this machine, e.g. `@anthropic-ai/claude-code-linux-x64`. */
export function platformPackage(platform = process.platform, arch = process.arch, musl = isMusl()) {
  const supported = {
    darwin: ['x64', 'arm64'],
    linux: ['x64', 'arm64'],
    win32: ['x64', 'arm64'],
  };
  if (!supported[platform]?.includes(arch)) throw new FetchClaudeError(`Claude Code ${CLAUDE_VERSION} has no native build for ${platform}-${arch}`);
  return `@anthropic-ai/claude-code-${platform}-${arch}${platform === 'linux' && musl ? '-musl' : ''}`;
}

export function cacheDir(version = CLAUDE_VERSION, root = REPO_ROOT) {
  return join(root, '.cache', 'claude-code', version);
}

export function binaryPath(version = CLAUDE_VERSION, root = REPO_ROOT) {
  return join(cacheDir(version, root), 'node_modules', platformPackage(), process.platform === 'win32' ? 'claude.exe' : 'claude');
}

/** The version the binary reports, or undefined when it does not run. */
export function binaryVersion(binary) {
  if (!existsSync(binary)) return undefined;
  const r = spawnSync(binary, ['--version'], {
    encoding: 'utf8',
    timeout: 30_000,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DISABLE_AUTOUPDATER: '1' },
  });
  if (r.status !== 0) return undefined;
  return /(\d+\.\d+\.\d+)/.exec(r.stdout ?? '')?.[1];
}

/**
 * Make sure the pinned binary is in the cache and works; returns its path. Idempotent: a second call
 * only runs `claude --version`. Throws FetchClaudeError with a one-line message on failure.
 */
export function fetchClaude(options = {}) {
  const version = options.version ?? CLAUDE_VERSION;
  const root = options.root ?? REPO_ROOT;
  const log = options.log ?? (() => {});
  const binary = binaryPath(version, root);
  if (binaryVersion(binary) === version) return { binary, version, cached: true };

  const cache = cacheDir(version, root);
  const pkg = `${platformPackage()}@${version}`;
  // A half-finished earlier attempt leaves a broken tree: start from scratch.
  rmSync(join(cache, 'node_modules'), { recursive: true, force: true });
  mkdirSync(cache, { recursive: true });
  log(`installing ${pkg} into ${cache} (one time, about 6 s)`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', cache, pkg], {
    encoding: 'utf8',
    timeout: 10 * 60_000,
    stdio: ['ignore', 'pipe', 'pipe'],
    shell: process.platform === 'win32',
  });
  if (r.error !== undefined) throw new FetchClaudeError(`could not run npm to install ${pkg}: ${r.error.message}`);
  if (r.status !== 0) {
    // npm prints `npm error code X` first; the line after it says what went wrong.
    const errors = `${r.stderr ?? ''}${r.stdout ?? ''}`
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /^npm (error|ERR!)/.test(l) && !/ code |complete log/.test(l));
    const detail = errors[0]?.replace(/^npm (error|ERR!)\s*/, '');
    throw new FetchClaudeError(`npm install ${pkg} failed (exit ${r.status ?? r.signal})${detail === undefined ? '' : `: ${detail}`}`);
  }
  if (!existsSync(binary)) throw new FetchClaudeError(`npm installed ${pkg} but ${binary} is missing`);
  const got = binaryVersion(binary);
  if (got !== version) throw new FetchClaudeError(`${binary} reports version ${got ?? '(did not run)'}, expected ${version}`);
  return { binary, version, cached: false };
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (invokedDirectly) {
  try {
    const { binary } = fetchClaude({ log: (line) => console.error(line) });
    console.log(binary);
  } catch (error) {
    console.error(`fetch-claude: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
