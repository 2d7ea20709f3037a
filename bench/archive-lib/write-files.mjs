// What one file per chunk costs by itself: write `count` files of `bytes` in all into a fresh folder
// the way the archive does (a temporary name, then a rename), with nothing else to do. The ingest
// bench runs it in every round beside `ctxl ingest`: the L2 layout (one Markdown file per chunk)
// puts this floor under any ingest, whatever the code does.
// Usage: node write-files.mjs <dir> <count> <bytes>; prints {"files","ms"}.
import { closeSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const [dir, countArg, bytesArg] = process.argv.slice(2);
const count = Number(countArg);
const size = Math.max(1, Math.round(Number(bytesArg) / count));
const text = Buffer.alloc(size, 0x61);
mkdirSync(dir, { recursive: true });
const t0 = performance.now();
for (let i = 0; i < count; i++) {
  const file = join(dir, `${i.toString(16).padStart(16, '0')}.md`);
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}
process.stdout.write(`${JSON.stringify({ files: count, ms: performance.now() - t0 })}\n`);
