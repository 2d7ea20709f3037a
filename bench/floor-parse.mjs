// What any hook must do with its input beyond the floor, for the 1 MB rows of the hook bench: read
// all of stdin as the floor does, decode it and JSON.parse it. With CTXL_BENCH_SPAWN=1, also start one
// detached process (`node --version`, which exits at once), as a hook must that hands work to a
// background job: the fork of a process holding the parsed input is the cost measured. Nothing else.
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
if (typeof input !== 'object' || input === null) process.exit(1);
if (process.env.CTXL_BENCH_SPAWN === '1') {
  const { spawn } = await import('node:child_process');
  spawn(process.execPath, ['--version'], { detached: true, stdio: 'ignore' }).unref();
}
