// Starting a detached process (the job that archives a large tool output after PostToolUse has
// answered) without node:child_process. That module loads node:net and the stream modules for the
// pipes it never gets here: ~5 ms, and its spawn() another ~2 ms of options handling, in a hook
// whose whole budget is ~25 ms. So the process is started through libuv's process handle, the
// binding child_process itself wraps (listed by process.binding for userland; its spawn options
// unchanged for a decade), with stdio on /dev/null, in a session of its own (setsid), unreferenced
// so this process exits without waiting. Where the binding is missing or refuses the options, or
// `--pending-deprecation` would make process.binding warn: child_process.spawn, as before.
import { nodeBinding } from './bindings.ts';

/** Start `command args…` detached with `env`; rejects when it could not be started. */
export async function spawnDetached(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const started = spawnWithHandle(command, args, env);
  if (started === true) return;
  const { spawn } = await import('node:child_process');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command, [...args], { detached: true, stdio: 'ignore', env });
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
    child.once('error', reject);
  });
}

interface ProcessHandle {
  spawn(options: Record<string, unknown>): number;
  unref(): void;
  close(): void;
  onexit: (() => void) | undefined;
}

/** True when started; false when the binding is not usable here (nothing was started). */
function spawnWithHandle(command: string, args: readonly string[], env: NodeJS.ProcessEnv): boolean {
  try {
    const Process = nodeBinding('process_wrap')?.Process;
    if (typeof Process !== 'function') return false;
    const handle = new (Process as new () => ProcessHandle)();
    handle.onexit = () => {};
    const envPairs: string[] = [];
    for (const [key, value] of Object.entries(env)) if (value !== undefined) envPairs.push(`${key}=${value}`);
    const err = handle.spawn({
      file: command,
      args: [command, ...args],
      cwd: process.cwd(),
      envPairs,
      stdio: [{ type: 'ignore' }, { type: 'ignore' }, { type: 'ignore' }],
      detached: true,
      windowsHide: true,
      windowsVerbatimArguments: false,
    });
    if (err !== 0) {
      handle.close();
      return false;
    }
    handle.unref();
    return true;
  } catch {
    return false;
  }
}
