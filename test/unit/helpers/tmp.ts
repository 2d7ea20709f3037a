// Temporary directories made with fs.mkdtempSync(os.tmpdir()) and removed after each test.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterEach } from 'vitest';
import { removeTree } from '../../support/remove-tree.ts';

/** Call once at the top of a test file; returns a maker of fresh temp dirs that are cleaned up. */
export function useTempDirs(prefix = 'ctxl-test-'): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) {
      restoreModes(dir);
      // A detached job a test started may still be writing into it as it exits.
      removeTree(dir);
    }
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}

/** A test may have made a folder read-only; give the owner write access back before removal. */
function restoreModes(dir: string): void {
  try {
    const stat = statSync(dir);
    if (!stat.isDirectory()) return;
    chmodSync(dir, 0o700);
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) restoreModes(join(dir, entry.name));
  } catch {}
}

/** Every file under `dir` (relative paths with `/`), sorted. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/** Every directory under `dir` (relative paths with `/`), sorted. */
export function listDirs(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const p = join(d, e.name);
      out.push(relative(dir, p).split(sep).join('/'));
      walk(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** Path → content (base64) and mode of every file and directory: equal snapshots mean nothing changed. */
export function snapshotTree(dir: string): Record<string, string> {
  const snap: Record<string, string> = {};
  for (const d of listDirs(dir)) snap[`${d}/`] = (statSync(join(dir, d)).mode & 0o777).toString(8);
  for (const f of listFiles(dir)) {
    const p = join(dir, f);
    snap[f] = `${(statSync(p).mode & 0o777).toString(8)} ${readFileSync(p).toString('base64')}`;
  }
  return snap;
}
