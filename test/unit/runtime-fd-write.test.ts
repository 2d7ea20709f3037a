// lib/runtime/fd-write.ts: whole writes through a file descriptor (the hooks' answer, the CLI's output),
// with a reader that left (EPIPE), a full pipe (EAGAIN) and a full disk told apart; and the CLI's
// exit code when its output cannot be written.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTerminal, writeAll } from '../../lib/runtime/fd-write.ts';
import { distDir } from './helpers/paths.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-fd-write-');

/** The parent's end of a child's stdin pipe, as a file descriptor. */
function stdinFd(child: ChildProcess): number {
  const fd = (child.stdin as unknown as { _handle?: { fd?: number } })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) throw new Error('no fd for the child stdin pipe');
  return fd;
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => child.once('exit', () => resolve()));

describe('writeAll', () => {
  it('writes everything to a file and says nothing', () => {
    const file = join(tempDir(), 'out.txt');
    const fd = openSync(file, 'w');
    const text = `${'é'.repeat(300_000)}\n`;
    expect(writeAll(fd, text)).toBeUndefined();
    closeSync(fd);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it.runIf(existsSync('/dev/full'))('returns the error of a full disk (ENOSPC)', () => {
    const fd = openSync('/dev/full', 'w');
    try {
      expect(writeAll(fd, 'x')).toBe('ENOSPC');
    } finally {
      closeSync(fd);
    }
  });

  it('returns EPIPE when the reader has gone', async () => {
    // The child closes its end of the pipe, says so, and stays alive (so our end stays open).
    const child = spawn('sh', ['-c', 'exec 0<&-; echo closed; sleep 5'], { stdio: ['pipe', 'pipe', 'ignore'] });
    try {
      await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
      expect(writeAll(stdinFd(child), 'x'.repeat(200_000))).toBe('EPIPE');
    } finally {
      child.kill();
      child.stdin?.destroy();
      await exited(child);
    }
  });

  it('asks keepTrying at each full pipe (EAGAIN), saying whether part is out, and stops when told', async () => {
    const child = spawn('sleep', ['5'], { stdio: ['pipe', 'ignore', 'ignore'] });
    const asked: boolean[] = [];
    try {
      const r = writeAll(stdinFd(child), 'x'.repeat(1024 * 1024), (partial) => {
        asked.push(partial);
        return asked.length < 3;
      });
      expect(r).toBe('EAGAIN');
      expect(asked).toEqual([true, true, true]); // the pipe took its 64 KB before it filled
    } finally {
      child.kill();
      child.stdin?.destroy();
      await exited(child);
    }
  });
});

describe('isTerminal', () => {
  it('is false for a file and true for a character device', () => {
    const file = join(tempDir(), 'f.txt');
    writeFileSync(file, '');
    const f = openSync(file, 'r');
    const n = openSync('/dev/null', 'w');
    try {
      expect(isTerminal(f)).toBe(false);
      expect(isTerminal(n)).toBe(true);
      expect(isTerminal(9_999)).toBe(false);
    } finally {
      closeSync(f);
      closeSync(n);
    }
  });
});

describe('the CLI when its output cannot be written', () => {
  it.runIf(existsSync('/dev/full'))('says so in one stderr line and exits 1 (a full disk behind `> file`)', () => {
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [join(distDir, 'cli.mjs'), 'help'], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stderr.trimEnd().split('\n')).toEqual(['ctxl: could not write the output (ENOSPC)']);
    } finally {
      closeSync(full);
    }
  });

  it('a reader that leaves early (`| head`) is no error: exit 0, nothing on stderr', () => {
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${join(distDir, 'cli.mjs')}" help | head -c 10 >/dev/null; echo "\${PIPESTATUS[0]}"`], {
      encoding: 'utf8',
    });
    expect(r.stdout.trim()).toBe('0');
    expect(r.stderr).toBe('');
  });
});
