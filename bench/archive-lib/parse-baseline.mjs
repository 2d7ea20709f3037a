// Baseline for ingest throughput: a bare line-by-line pass over one transcript that JSON.parses every
// line and does nothing else. It reads the file the way the product's reader does (fixed 256 KB
// reads, split at '\n'), so the difference to `ctxl ingest` is what ingest adds: entries, chunking,
// redaction, keywords, chunk files, catalog, cursor (and, via the first recall, the index).
// Usage: node parse-baseline.mjs <file.jsonl>; prints {"lines","bad","bytes"}.
import { closeSync, openSync, readSync } from 'node:fs';

const file = process.argv[2];
const fd = openSync(file, 'r');
const buffer = Buffer.allocUnsafe(256 * 1024);
let rest = Buffer.alloc(0);
let lines = 0;
let bad = 0;
let bytes = 0;
const parse = (b) => {
  if (b.length === 0) return;
  lines += 1;
  try {
    JSON.parse(b.toString('utf8'));
  } catch {
    bad += 1;
  }
};
for (;;) {
  const n = readSync(fd, buffer, 0, buffer.length, null);
  if (n === 0) break;
  bytes += n;
  let chunk = rest.length > 0 ? Buffer.concat([rest, buffer.subarray(0, n)]) : buffer.subarray(0, n);
  let start = 0;
  for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
    parse(chunk.subarray(start, nl));
    start = nl + 1;
  }
  chunk = chunk.subarray(start);
  rest = Buffer.from(chunk);
}
parse(rest);
closeSync(fd);
process.stdout.write(`${JSON.stringify({ lines, bad, bytes })}\n`);
