// Disk use of an archive: apparent bytes (file sizes) and allocated bytes (st_blocks × 512, what
// `du -sk` counts, directories included).
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export function duTree(path) {
  const total = { apparent: 0, allocated: 0, files: 0 };
  walk(path, total);
  return total;
}

function walk(path, total) {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return;
  }
  total.allocated += st.blocks * 512;
  if (st.isDirectory()) {
    for (const name of readdirSync(path)) walk(join(path, name), total);
    return;
  }
  total.apparent += st.size;
  total.files += 1;
}

export function duFiles(paths) {
  const total = { apparent: 0, allocated: 0, files: 0 };
  for (const p of paths) walk(p, total);
  return total;
}

/**
 * L2 and index use of a data dir: L2 = each session's archived/ (chunk files and the folder) +
 * catalog.jsonl; index = <data>/index/ (segments, manifest and the folder; a per-session index.json
 * of older versions counts too). Session bookkeeping (session.json, cursor*.json) is reported apart.
 */
export function archiveUse(home) {
  const l2 = { apparent: 0, allocated: 0, files: 0 };
  const index = { apparent: 0, allocated: 0, files: 0 };
  const other = { apparent: 0, allocated: 0, files: 0 };
  const sessions = join(home, 'sessions');
  let ids = [];
  try {
    ids = readdirSync(sessions);
  } catch {}
  for (const id of ids) {
    const dir = join(sessions, id);
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (name === 'archived' || name === 'catalog.jsonl') walk(p, l2);
      else if (name === 'index.json') walk(p, index);
      else walk(p, other);
    }
    const st = lstatSync(dir);
    other.allocated += st.blocks * 512;
  }
  walk(join(home, 'index'), index);
  return { sessions: ids.length, l2, index, other };
}
