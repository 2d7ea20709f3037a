// e2e global setup: make sure the pinned Claude Code binary is in the shared cache
// (.cache/claude-code/<version>/, via scripts/fetch-claude.mjs) and hand its path to the tests with
// provide/inject. Fails the whole run with one clear line when it cannot.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { REPO_ROOT } from '../support/run-claude.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute path of the pinned Claude Code native binary. */
    claudeBin: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  let bin: string;
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [join(REPO_ROOT, 'scripts', 'fetch-claude.mjs')], { cwd: REPO_ROOT, timeout: 10 * 60_000 });
    bin = stdout.trim().split('\n').at(-1) ?? '';
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(
      `e2e: could not get the pinned Claude Code binary (${stderr === '' ? (error as Error).message : stderr}). Run \`npm run fetch-claude\` (needs the npm registry once) and retry.`,
    );
  }
  if (bin === '' || !existsSync(bin)) throw new Error(`e2e: fetch-claude printed no usable binary path (${JSON.stringify(bin)})`);
  for (const file of ['cli.mjs', 'session-start.mjs', 'stop.mjs']) {
    if (!existsSync(join(REPO_ROOT, 'dist', file))) throw new Error(`e2e: dist/${file} is missing; run \`npm run build\` first`);
  }
  project.provide('claudeBin', bin);
}
