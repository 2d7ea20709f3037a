// Archive jobs that their own session may never come back to. Stop and SessionEnd start a session's
// jobs, but a job whose process died after the session's last Stop (the machine went down, the
// terminal was killed before SessionEnd) would wait for that session to be resumed. SessionStart of
// any session therefore looks at the jobs folder (one readdir: it is empty on almost every start)
// and, when it holds a job, starts `ctxl run-jobs` detached, which claims and runs every session's
// jobs that need a start (see claimJobs) and leaves the rest alone. Kept apart from tool-archive.ts
// so SessionStart's bundle does not carry the archiving code.
import { spawnDetached } from '../runtime/detached.ts';
import { listDir } from '../runtime/store.ts';
import type { SessionEnv } from './session-files.ts';

/** True when the data dir holds a job file (a set-aside `.bad-*` one does not count). */
export function anyJobs(store: SessionEnv['store']): boolean {
  return listDir(store.path('jobs')).some((name) => name.endsWith('.json'));
}

/** Start `node <cli> run-jobs` detached when any job is waiting; true when started. */
export async function sweepJobs(env: SessionEnv, cliPath: string): Promise<boolean> {
  if (!anyJobs(env.store)) return false;
  try {
    // The largest heap a job is given (spawnJob): a transcript line's job parses up to 256 MB at
    // once. A limit, not a reservation: a file job still reads part by part.
    await spawnDetached(process.execPath, ['--max-old-space-size=1024', '--max-semi-space-size=4', cliPath, 'run-jobs'], process.env);
  } catch (error) {
    env.log.warn('could not start ctxl run-jobs for the waiting archive jobs', error);
    return false;
  }
  env.log.info('archive jobs are waiting: started ctxl run-jobs');
  return true;
}
