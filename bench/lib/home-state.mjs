// Snapshot and restore a CTXL_HOME so that a stateful hook (Stop, PreCompact) finds exactly the same
// data before every timed run: the saved cursor and whatever else the hooks keep next to it (archive,
// index), not only cursor.json. Restoring copies back only what changed (size, inode or mtime differ),
// removes what is new, and never touches logs/ (the bench reads the hooks' warnings from there) or
// cache/ (the compiled-code cache belongs to the installation and persists for a user, as here).
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const EXCLUDED = new Set(['logs', 'cache']);

function walk(root, rel, onDir, onFile) {
  let entries;
  try {
    entries = readdirSync(join(root, rel), { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const r = rel === '' ? e.name : join(rel, e.name);
    if (rel === '' && EXCLUDED.has(e.name)) continue;
    if (e.isDirectory()) {
      if (onDir(r) !== false) walk(root, r, onDir, onFile);
    } else onFile(r);
  }
}

export function snapshot(root) {
  const files = new Map();
  const dirs = new Set();
  walk(
    root,
    '',
    (r) => {
      dirs.add(r);
    },
    (r) => {
      const p = join(root, r);
      const st = statSync(p);
      files.set(r, { data: readFileSync(p), size: st.size, ino: st.ino, mtimeMs: st.mtimeMs, atime: st.atime, mtime: st.mtime, mode: st.mode & 0o777 });
    },
  );
  return { root, files, dirs };
}

/** Bring `snap.root` back to the snapshot; returns how many files were rewritten or removed. */
export function restore(snap) {
  const { root, files, dirs } = snap;
  const seen = new Set();
  let touched = 0;
  const put = (r, want) => {
    const p = join(root, r);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, want.data, { mode: want.mode });
    utimesSync(p, want.atime, want.mtime);
    const st = statSync(p);
    want.ino = st.ino;
    want.mtimeMs = st.mtimeMs;
    touched += 1;
  };
  walk(
    root,
    '',
    (r) => {
      if (dirs.has(r)) return true;
      rmSync(join(root, r), { recursive: true, force: true });
      touched += 1;
      return false;
    },
    (r) => {
      const want = files.get(r);
      const p = join(root, r);
      if (want === undefined) {
        unlinkSync(p);
        touched += 1;
        return;
      }
      seen.add(r);
      const st = statSync(p);
      if (st.size !== want.size || st.ino !== want.ino || st.mtimeMs !== want.mtimeMs) put(r, want);
    },
  );
  for (const r of dirs) mkdirSync(join(root, r), { recursive: true });
  for (const [r, want] of files) if (!seen.has(r)) put(r, want);
  return touched;
}
