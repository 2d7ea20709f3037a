// lib/cli/install.ts, doctor.ts, main.ts, run as the compiled CLI (`node dist/cli.mjs`) against a temp
// CLAUDE_CONFIG_DIR and CTXL_HOME: install keeps everything of the user's, is idempotent, backs up
// and dry-runs; uninstall restores settings.json byte for byte; doctor's JSON contract; misuse exits 2.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEMP_LEFTOVER_MS } from '../../lib/archive/archive-store.ts';
import { hookCommands, hookNodeFlags, loaderPrograms } from '../../lib/cli/doctor.ts';
import { repoRoot } from './helpers/paths.ts';
import { baseEnv, type RunResult, runCli } from './helpers/proc.ts';
import { listFiles, snapshotTree, useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-cli-');

type Obj = Record<string, unknown>;
interface Handler {
  type: string;
  command: string;
  timeout?: number;
}
interface Group {
  matcher?: string;
  hooks: Handler[];
}

// Every event hooks.json binds (the install must merge exactly these).
const OUR_EVENTS = Object.keys((JSON.parse(readFileSync(join(repoRoot, 'hooks.json'), 'utf8')) as { hooks: Record<string, unknown> }).hooks);

/** A settings.json a real user might have: other keys, their own hooks, 2-space JSON. */
const USER_SETTINGS = {
  $schema: 'https://json.schemastore.org/claude-code-settings.json',
  model: 'opus',
  permissions: { allow: ['Bash(npm test:*)', 'Read(~/notes/**)'], deny: ['Bash(rm -rf:*)'] },
  env: { FOO: 'bar' },
  enabledPlugins: { 'other-plugin@market': true, 'context-lifecycle@context-lifecycle': false },
  hooks: {
    PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'npx prettier --write "$CLAUDE_PROJECT_DIR"', timeout: 30 }] }],
    Notification: [{ hooks: [{ type: 'command', command: 'notify-send "Claude needs you"' }] }],
    SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo "hello from the user"' }] }],
  },
  statusLine: { type: 'command', command: '~/.claude/statusline.sh' },
};

function setup(settings?: string) {
  const home = tempDir();
  const config = join(home, 'config');
  const data = join(home, 'data');
  mkdirSync(config, { recursive: true });
  if (settings !== undefined) writeFileSync(join(config, 'settings.json'), settings);
  const env = baseEnv(home, { CLAUDE_CONFIG_DIR: config, CTXL_HOME: data });
  const cli = (...args: string[]) => runCli(args, env, home);
  const settingsText = () => readFileSync(join(config, 'settings.json'), 'utf8');
  return { home, config, data, env, cli, settingsText, settingsPath: join(config, 'settings.json') };
}

const expectOk = (r: RunResult) => {
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
};

/** Exit non-zero with exactly one line on stderr and nothing on stdout. */
const expectOneLineError = (r: RunResult, status: number) => {
  expect(r.status).toBe(status);
  expect(r.stdout).toBe('');
  expect(r.stderr.endsWith('\n')).toBe(true);
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(/^ctxl: /);
};

const ourHandlers = (settings: Obj) =>
  Object.entries((settings.hooks ?? {}) as Record<string, Group[]>).flatMap(([event, groups]) =>
    groups.flatMap((g) => g.hooks.filter((h) => /context-lifecycle[/\\]dist[/\\]/.test(h.command)).map((h) => ({ event, ...h }))),
  );

describe('ctxl install', () => {
  it('keeps the user’s keys and hooks and appends ours with absolute paths to files that exist', () => {
    const original = `${JSON.stringify(USER_SETTINGS, null, 2)}\n`;
    const t = setup(original);
    const r = t.cli('install');
    expectOk(r);
    const after = JSON.parse(t.settingsText()) as Obj;

    // Every key other than hooks is untouched.
    const { hooks: _h, ...restAfter } = after;
    const { hooks: _o, ...restBefore } = USER_SETTINGS;
    expect(restAfter).toEqual(restBefore);

    // The user's hook groups come first, unchanged, in every event they had.
    const hooks = after.hooks as Record<string, Group[]>;
    for (const [event, groups] of Object.entries(USER_SETTINGS.hooks)) expect(hooks[event]?.slice(0, groups.length)).toEqual(groups);

    // Ours: one handler per event, appended after the user's.
    const ours = ourHandlers(after);
    expect(ours.map((h) => h.event).sort()).toEqual([...OUR_EVENTS].sort());
    for (const event of OUR_EVENTS) {
      const groups = hooks[event] as Group[];
      const userCount = (USER_SETTINGS.hooks as Record<string, Group[]>)[event]?.length ?? 0;
      expect(groups).toHaveLength(userCount + 1);
    }
    const runtime = join(t.config, 'context-lifecycle', 'dist');
    for (const h of ours) {
      const file = /^node(?: --[^\s"]+)* "([^"]+)"$/.exec(h.command)?.[1];
      expect(file, h.command).toBeDefined();
      expect((file as string).startsWith(`${runtime}/`)).toBe(true);
      expect(existsSync(file as string)).toBe(true);
      expect(h.timeout).toBeGreaterThan(0);
    }
    // Commands and skills are in place. None runs a shell line (`!`): our hooks answer them, so a
    // config path with a space or a quote needs no quoting and the user no permission rule.
    for (const name of ['context-status.md', 'phase.md', 'recall.md']) {
      const command = readFileSync(join(t.config, 'commands', name), 'utf8');
      expect(command).not.toContain('${CLAUDE_PLUGIN_ROOT}');
      expect(command, name).not.toMatch(/!`|allowed-tools/);
    }
    expect(existsSync(join(t.config, 'skills', 'context-lifecycle', 'SKILL.md'))).toBe(true);
  });

  it('installs a runtime copy whose hooks run on their own', () => {
    const t = setup();
    expectOk(t.cli('install'));
    // Run the installed copy (not the repo's dist/): it must be complete on its own.
    const installed = join(t.config, 'context-lifecycle', 'dist', 'session-start.mjs');
    const out = spawnSync(process.execPath, [installed], {
      input: JSON.stringify({ session_id: 's', transcript_path: join(t.home, 'none.jsonl'), cwd: t.home, hook_event_name: 'SessionStart', source: 'startup' }),
      env: t.env,
      cwd: t.home,
      encoding: 'utf8',
    });
    expect(out.status).toBe(0);
    const parsed = JSON.parse(out.stdout) as { hookSpecificOutput: { hookEventName: string } };
    expect(parsed.hookSpecificOutput.hookEventName).toBe('SessionStart');
  });

  it('a config path with a space, $, a quote and a backtick: the bound commands run through a shell, and doctor is happy', () => {
    const t = setup();
    const config = join(t.home, 'my "odd" $HOME `dir`', '.claude');
    mkdirSync(config, { recursive: true });
    const env = { ...t.env, CLAUDE_CONFIG_DIR: config };
    expectOk(runCli(['install'], env, t.home));
    const settings = JSON.parse(readFileSync(join(config, 'settings.json'), 'utf8')) as Obj;
    const start = ourHandlers(settings).find((h) => h.event === 'SessionStart');
    expect(start).toBeDefined();
    // As Claude Code runs it: through a shell.
    const out = spawnSync('/bin/sh', ['-c', start?.command ?? 'false'], {
      input: JSON.stringify({ session_id: 's', transcript_path: join(t.home, 'none.jsonl'), cwd: t.home, hook_event_name: 'SessionStart', source: 'startup' }),
      env,
      cwd: t.home,
      encoding: 'utf8',
    });
    expect(out.stderr).toBe('');
    expect(JSON.parse(out.stdout)).toMatchObject({ hookSpecificOutput: { hookEventName: 'SessionStart' } });
    const doctor = runCli(['doctor', '--json'], env, t.home);
    expect(JSON.parse(doctor.stdout)).toEqual({ ok: true, problems: [] });
  });

  it('refuses a config path with a backslash (Node runs no ES module from one), changing nothing', () => {
    const t = setup();
    const config = join(t.home, 'back\\slash', '.claude');
    mkdirSync(config, { recursive: true });
    const before = snapshotTree(t.home);
    const r = runCli(['install'], { ...t.env, CLAUDE_CONFIG_DIR: config }, t.home);
    expectOneLineError(r, 1);
    expect(r.stderr).toMatch(/holds a backslash.*nothing was changed/);
    expect(snapshotTree(t.home)).toEqual(before);
  });

  it('a copy refused part way leaves no staging folder, and the next install completes', () => {
    const t = setup();
    expectOk(t.cli('install'));
    // A folder where a runtime file goes: its rename fails (as EACCES or ENOSPC would, which root cannot provoke).
    const blocker = join(t.config, 'context-lifecycle', 'dist', 'cli.mjs');
    rmSync(blocker);
    mkdirSync(join(blocker, 'inside'), { recursive: true });
    const r = t.cli('install');
    expect(r.status).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^ctxl: .*cli\.mjs/)]);
    expect(listFiles(t.config).filter((f) => f.includes('context-lifecycle.new-'))).toEqual([]);
    rmSync(blocker, { recursive: true });
    expectOk(t.cli('install'));
    expect(JSON.parse(t.cli('doctor', '--json').stdout)).toEqual({ ok: true, problems: [] });
  });

  // Root cannot be refused a rename by permissions; strace can fail one (skipped where it is missing).
  const strace = spawnSync('strace', ['-V'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!strace)('a first install refused part way (the 20th rename fails) leaves no half copy, and the next install completes', () => {
    const t = setup();
    const r = spawnSync(
      'strace',
      [
        '-f',
        '-qq',
        '-o',
        '/dev/null',
        '-e',
        'trace=rename,renameat,renameat2',
        '-e',
        'inject=rename,renameat,renameat2:error=ENOSPC:when=20',
        process.execPath,
        join(repoRoot, 'dist', 'cli.mjs'),
        'install',
      ],
      { env: t.env, cwd: t.home, encoding: 'utf8' },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^ctxl: ENOSPC/);
    expect(listFiles(t.config)).toEqual([]);
    expectOk(t.cli('install'));
    expect(JSON.parse(t.cli('doctor', '--json').stdout)).toEqual({ ok: true, problems: [] });
  });

  it('doctor flags a plugin under a config path with a backslash (Node cannot run it from there)', () => {
    const t = setup();
    const config = join(t.home, 'a\\b', '.claude');
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, 'settings.json'), JSON.stringify({ enabledPlugins: { 'context-lifecycle@context-lifecycle': true } }));
    const r = runCli(['doctor', '--json'], { ...t.env, CLAUDE_CONFIG_DIR: config }, t.home);
    expect(r.status).toBe(1);
    expect((JSON.parse(r.stdout) as { problems: Array<{ code: string }> }).problems.map((p) => p.code)).toContain('unrunnable-path');
  });

  it('is idempotent: installing twice gives byte-identical settings and one set of hooks', () => {
    const t = setup(`${JSON.stringify(USER_SETTINGS, null, 2)}\n`);
    expectOk(t.cli('install'));
    const first = t.settingsText();
    expectOk(t.cli('install'));
    expect(t.settingsText()).toBe(first);
    expect(ourHandlers(JSON.parse(first) as Obj)).toHaveLength(OUR_EVENTS.length);
  });

  it('writes a backup of the previous settings.json', () => {
    const original = `${JSON.stringify(USER_SETTINGS, null, 2)}\n`;
    const t = setup(original);
    expectOk(t.cli('install'));
    expect(readFileSync(`${t.settingsPath}.ctxl-backup`, 'utf8')).toBe(original);
  });

  it('keeps the user’s indentation', () => {
    const t = setup(`${JSON.stringify({ model: 'opus', hooks: {} }, null, 4)}\n`);
    expectOk(t.cli('install'));
    expect(t.settingsText()).toMatch(/^\{\n {4}"model": "opus",\n {4}"hooks": \{\n {8}"/);
  });

  it('--dry-run changes nothing on disk', () => {
    const t = setup(`${JSON.stringify(USER_SETTINGS, null, 2)}\n`);
    const before = snapshotTree(t.home);
    const r = t.cli('install', '--dry-run');
    expectOk(r);
    expect(r.stdout).toMatch(/would/);
    expect(snapshotTree(t.home)).toEqual(before);
  });

  it('--dry-run changes nothing when there is no config dir content at all', () => {
    const t = setup();
    const before = snapshotTree(t.home);
    expectOk(t.cli('install', '--dry-run'));
    expect(snapshotTree(t.home)).toEqual(before);
  });

  it.each([
    ['invalid JSON', '{ "model": "opus", }'],
    ['a JSON array', '[]'],
  ])('refuses with one line and a non-zero exit when settings.json is %s, and changes nothing', (_what, text) => {
    const t = setup(text);
    const before = snapshotTree(t.home);
    const r = t.cli('install');
    expectOneLineError(r, 1);
    expect(r.stderr).toMatch(/settings\.json/);
    expect(snapshotTree(t.home)).toEqual(before);
  });

  it('refuses when it is already enabled as a plugin', () => {
    const t = setup(JSON.stringify({ enabledPlugins: { 'context-lifecycle@context-lifecycle': true } }));
    const before = snapshotTree(t.home);
    expectOneLineError(t.cli('install'), 1);
    expect(snapshotTree(t.home)).toEqual(before);
  });
});

describe('ctxl uninstall', () => {
  it('restores settings.json byte for byte and leaves the config dir as it was', () => {
    const original = `${JSON.stringify(USER_SETTINGS, null, 2)}\n`;
    const t = setup(original);
    const before = snapshotTree(t.config);
    expectOk(t.cli('install'));
    expectOk(t.cli('uninstall'));
    expect(t.settingsText()).toBe(original);
    expect(snapshotTree(t.config)).toEqual(before);
  });

  it('restores the original after two installs', () => {
    const original = `{"model":"sonnet","hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}}`;
    const t = setup(original);
    expectOk(t.cli('install'));
    expectOk(t.cli('install'));
    expectOk(t.cli('uninstall'));
    expect(t.settingsText()).toBe(original);
  });

  it('removes settings.json again when there was none before', () => {
    const t = setup();
    const before = listFiles(t.config);
    expectOk(t.cli('install'));
    expect(existsSync(t.settingsPath)).toBe(true);
    expectOk(t.cli('uninstall'));
    expect(existsSync(t.settingsPath)).toBe(false);
    expect(listFiles(t.config)).toEqual(before);
  });

  it('keeps a command file the user modified', () => {
    const t = setup();
    expectOk(t.cli('install'));
    const command = join(t.config, 'commands', 'context-status.md');
    const mine = `${readFileSync(command, 'utf8')}\nMy own addition.\n`;
    writeFileSync(command, mine);
    const r = t.cli('uninstall');
    expectOk(r);
    expect(readFileSync(command, 'utf8')).toBe(mine);
    expect(r.stdout).toMatch(/keep .*context-status\.md/);
    expect(existsSync(join(t.config, 'context-lifecycle'))).toBe(false);
  });

  it('--dry-run changes nothing', () => {
    const t = setup(`${JSON.stringify(USER_SETTINGS, null, 2)}\n`);
    expectOk(t.cli('install'));
    const before = snapshotTree(t.home);
    const r = t.cli('uninstall', '--dry-run');
    expectOk(r);
    expect(r.stdout).toMatch(/would/);
    expect(snapshotTree(t.home)).toEqual(before);
  });

  it('keeps hooks the user added after installing', () => {
    const t = setup(`${JSON.stringify(USER_SETTINGS, null, 2)}\n`);
    expectOk(t.cli('install'));
    const s = JSON.parse(t.settingsText()) as { hooks: Record<string, Group[]> };
    s.hooks.Stop?.push({ hooks: [{ type: 'command', command: 'echo later' }] });
    writeFileSync(t.settingsPath, JSON.stringify(s, null, 2));
    expectOk(t.cli('uninstall'));
    const after = JSON.parse(t.settingsText()) as { hooks: Record<string, Group[]>; model: string };
    expect(ourHandlers(after)).toEqual([]);
    expect(after.hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: 'echo later' }] }]);
    expect(after.hooks.PostToolUse).toEqual(USER_SETTINGS.hooks.PostToolUse);
    expect(after.model).toBe('opus');
  });
});

describe('install and uninstall leave what is not theirs alone', () => {
  it('keeps another tool’s hook whose path merely contains context-lifecycle/dist', () => {
    const other = { type: 'command', command: 'node /home/u/tools/git-context-lifecycle/dist/snapshot.mjs' };
    const original = `${JSON.stringify({ hooks: { SessionEnd: [{ hooks: [other] }] } }, null, 2)}\n`;
    const t = setup(original);
    expectOk(t.cli('install'));
    const s = JSON.parse(t.settingsText()) as { hooks: Record<string, Group[]> };
    expect(s.hooks.SessionEnd?.[0]).toEqual({ hooks: [other] });
    expectOk(t.cli('uninstall'));
    expect(t.settingsText()).toBe(original);
  });

  it('keeps the first backup when installed twice and then edited', () => {
    const original = `${JSON.stringify(USER_SETTINGS, null, 2)}\n`;
    const t = setup(original);
    expectOk(t.cli('install'));
    expectOk(t.cli('install'));
    expect(readFileSync(`${t.settingsPath}.ctxl-backup`, 'utf8')).toBe(original);
    const s = JSON.parse(t.settingsText()) as Obj;
    writeFileSync(t.settingsPath, JSON.stringify({ ...s, model: 'sonnet' }, null, 2));
    expectOk(t.cli('uninstall'));
    expect(readFileSync(`${t.settingsPath}.ctxl-backup`, 'utf8')).toBe(original);
  });

  it.each([
    ['hooks an array', '{"hooks":[]}'],
    ['hooks a string', '{"hooks":"x"}'],
    ['hooks null', '{"hooks":null}'],
    ['an event not an array', '{"hooks":{"Stop":"echo"}}'],
    ['a group without a hooks array', '{"hooks":{"Stop":[{"command":"say done"}]}}'],
  ])('refuses settings.json with %s, and changes nothing', (_name, text) => {
    const t = setup(text);
    const before = snapshotTree(t.home);
    expectOneLineError(t.cli('install'), 1);
    expect(snapshotTree(t.home)).toEqual(before);
  });

  it('writes through a settings.json that is a symlink, and keeps the link', () => {
    const t = setup();
    const dotfiles = join(t.home, 'dotfiles');
    mkdirSync(dotfiles);
    const original = `${JSON.stringify(USER_SETTINGS, null, 2)}\n`;
    writeFileSync(join(dotfiles, 'claude-settings.json'), original);
    symlinkSync(join(dotfiles, 'claude-settings.json'), t.settingsPath);
    expectOk(t.cli('install'));
    expect(lstatSync(t.settingsPath).isSymbolicLink()).toBe(true);
    expect(ourHandlers(JSON.parse(readFileSync(join(dotfiles, 'claude-settings.json'), 'utf8')) as Obj).length).toBeGreaterThan(0);
    expectOk(t.cli('uninstall'));
    expect(lstatSync(t.settingsPath).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dotfiles, 'claude-settings.json'), 'utf8')).toBe(original);
  });

  it('never replaces or deletes a checkout or a folder of the user’s at the runtime path', () => {
    const t = setup();
    const target = join(t.config, 'context-lifecycle');
    mkdirSync(target);
    writeFileSync(join(target, 'NOTES.md'), 'mine\n');
    expectOneLineError(t.cli('install'), 1);
    expect(readFileSync(join(target, 'NOTES.md'), 'utf8')).toBe('mine\n');
    // A clone at the runtime path, installed from there: uninstall leaves the clone.
    rmSync(target, { recursive: true });
    cpSync(repoRoot, target, { recursive: true, filter: (src) => !/[\\/](node_modules|\.cache|\.git)([\\/]|$)/.test(src) });
    mkdirSync(join(target, '.git'), { recursive: true });
    writeFileSync(join(target, 'NOTES.md'), 'mine\n');
    const r = spawnSync(process.execPath, [join(target, 'dist', 'cli.mjs'), 'install'], { env: t.env, cwd: t.home, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expectOk(t.cli('uninstall'));
    expect(readFileSync(join(target, 'NOTES.md'), 'utf8')).toBe('mine\n');
    expect(existsSync(join(target, 'lib'))).toBe(true);
    expect(existsSync(join(target, 'install.json'))).toBe(false);
  });
});

describe('ctxl doctor --json', () => {
  const parse = (r: RunResult) => {
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    const report = JSON.parse(r.stdout) as { ok: boolean; problems: Array<Record<string, unknown>> };
    expect(Object.keys(report).sort()).toEqual(['ok', 'problems']);
    expect(typeof report.ok).toBe('boolean');
    expect(Array.isArray(report.problems)).toBe(true);
    for (const p of report.problems) {
      expect(Object.keys(p).sort()).toEqual(['code', 'fix', 'message']);
      for (const v of Object.values(p)) expect(typeof v).toBe('string');
    }
    expect(report.ok).toBe(report.problems.length === 0);
    return report;
  };

  it('reports a settings.json that is not an object, and hooks left unbound by a hand edit', () => {
    const t = setup('null');
    const r = t.cli('doctor', '--json');
    expect(r.status).toBe(1);
    expect(parse(r).problems.map((p) => p.code)).toContain('settings-invalid');
    writeFileSync(t.settingsPath, '{}');
    expectOk(t.cli('install'));
    const s = JSON.parse(t.settingsText()) as { hooks: Record<string, Group[]> };
    delete s.hooks.Stop;
    writeFileSync(t.settingsPath, JSON.stringify(s, null, 2));
    const after = t.cli('doctor', '--json');
    expect(after.status).toBe(1);
    expect(parse(after).problems.find((p) => p.code === 'missing-hook')?.message).toMatch(/^Stop not bound/);
  });

  it('exits 1 with not-installed before install', () => {
    const t = setup(JSON.stringify({ model: 'opus' }));
    const r = t.cli('doctor', '--json');
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('');
    const report = parse(r);
    expect(report.ok).toBe(false);
    expect(report.problems.map((p) => p.code)).toContain('not-installed');
  });

  it('exits 0 with no problems after install', () => {
    const t = setup(`${JSON.stringify(USER_SETTINGS, null, 2)}\n`);
    expectOk(t.cli('install'));
    const r = t.cli('doctor', '--json');
    const report = parse(r);
    expect(report).toEqual({ ok: true, problems: [] });
    expect(r.status).toBe(0);
  });

  it('reports node-flags when this Node refuses a flag the hook commands give it', () => {
    const t = setup();
    expectOk(t.cli('install'));
    // A copy of the package whose hooks.json names a flag no Node knows.
    const pkg = join(t.home, 'pkg');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    writeFileSync(join(pkg, 'dist', 'cli.mjs'), readFileSync(join(repoRoot, 'dist', 'cli.mjs')));
    cpSync(join(repoRoot, 'dist', 'programs'), join(pkg, 'dist', 'programs'), { recursive: true });
    const hooks = readFileSync(join(repoRoot, 'hooks.json'), 'utf8').replaceAll('--no-regexp-tier-up', '--no-such-flag-at-all');
    writeFileSync(join(pkg, 'hooks.json'), hooks);
    const r = spawnSync(process.execPath, [join(pkg, 'dist', 'cli.mjs'), 'doctor', '--json'], { env: t.env, cwd: t.home, encoding: 'utf8' });
    expect(r.status).toBe(1);
    const report = parse({ status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr });
    const problem = report.problems.find((p) => p.code === 'node-flags');
    expect(problem?.message).toMatch(/--no-such-flag-at-all/);
    // The real hooks.json passes (the test above: no problems after install).
    expect(hookNodeFlags(hookCommands(readFileSync(join(repoRoot, 'hooks.json'), 'utf8')))).toEqual([
      '--max-semi-space-size=1',
      '--no-opt',
      '--no-regexp-tier-up',
      '--optimize-for-size',
    ]);
    expect(hookCommands('not json')).toEqual([]);
    expect(hookNodeFlags(['node "/x/dist/stop.mjs"', 'bash -c node'])).toEqual([]);
  });

  it('reports double-install when the plugin is enabled as well as our settings hooks', () => {
    const t = setup();
    expectOk(t.cli('install'));
    const s = JSON.parse(t.settingsText()) as Obj;
    s.enabledPlugins = { 'context-lifecycle@context-lifecycle': true };
    writeFileSync(t.settingsPath, JSON.stringify(s, null, 2));
    const r = t.cli('doctor', '--json');
    expect(r.status).toBe(1);
    expect(parse(r).problems.map((p) => p.code)).toContain('double-install');
  });

  it('reports a hook that points at a missing runtime file', () => {
    const t = setup();
    expectOk(t.cli('install'));
    const s = JSON.parse(t.settingsText()) as { hooks: Record<string, Group[]> };
    const handler = s.hooks.Stop?.[0]?.hooks[0] as Handler;
    handler.command = handler.command.replace('stop.mjs', 'gone.mjs');
    writeFileSync(t.settingsPath, JSON.stringify(s));
    const r = t.cli('doctor', '--json');
    expect(r.status).toBe(1);
    expect(parse(r).problems.map((p) => p.code)).toContain('missing-runtime');
  });
  it('reports temporary files killed writers left in chunk folders (old ones only) until ctxl reindex removes them', () => {
    const t = setup(`${JSON.stringify(USER_SETTINGS, null, 2)}\n`);
    expectOk(t.cli('install'));
    const archived = join(t.data, 'sessions', 's1', 'archived');
    mkdirSync(archived, { recursive: true, mode: 0o700 });
    writeFileSync(join(archived, '0123456789abcdef.md.4242.7.lx1.tmp'), 'half a chunk');
    writeFileSync(join(archived, 'fedcba9876543210.md.4243.w3.tmp'), 'being written');
    const then = new Date(Date.now() - TEMP_LEFTOVER_MS - 60_000);
    utimesSync(join(archived, '0123456789abcdef.md.4242.7.lx1.tmp'), then, then);
    const r = t.cli('doctor', '--json');
    expect(r.status).toBe(1);
    const problem = parse(r).problems.find((p) => p.code === 'temp-leftovers');
    expect(problem?.message).toMatch(/^1 temporary file/);
    expect(problem?.fix).toMatch(/ctxl reindex/);
    expectOk(t.cli('reindex', '--all'));
    expect(parse(t.cli('doctor', '--json'))).toEqual({ ok: true, problems: [] });
  });

  it('reports a hook whose program file is missing (an install that did not finish)', () => {
    const t = setup();
    expectOk(t.cli('install'));
    const stop = join(t.config, 'context-lifecycle', 'dist', 'stop.mjs');
    const [program, ...more] = loaderPrograms(stop);
    expect(more).toEqual([]);
    expect(program).toMatch(/[/\\]dist[/\\]programs[/\\]stop-[0-9a-f]{16}\.js$/);
    expect(existsSync(program as string)).toBe(true);
    rmSync(program as string);
    const r = t.cli('doctor', '--json');
    expect(r.status).toBe(1);
    const problem = parse(r).problems.find((p) => p.code === 'missing-runtime');
    expect(problem?.message).toMatch(/stop\.mjs runs .*stop-[0-9a-f]{16}\.js, which does not exist/);
  });

  it('the CLI runs one of two programs by command, and a missing one is reported', () => {
    const t = setup();
    expectOk(t.cli('install'));
    const cli = join(t.config, 'context-lifecycle', 'dist', 'cli.mjs');
    const programs = loaderPrograms(cli);
    expect(programs.map((p) => basename(p).replace(/-[0-9a-f]{16}\.js$/, '')).sort()).toEqual(['cli', 'cli-search']);
    for (const p of programs) expect(existsSync(p)).toBe(true);
    rmSync(programs.find((p) => basename(p).startsWith('cli-search-')) as string);
    const r = t.cli('doctor', '--json');
    expect(r.status).toBe(1);
    expect(parse(r).problems.find((p) => p.code === 'missing-runtime')?.message).toMatch(/is incomplete/);
  });
});

describe('CLI misuse', () => {
  it.each([[['frobnicate']], [['install', '--bogus']], [['doctor', '--jsn']], [['uninstall', '--force']], [['install', 'extra']], [['doctor', '--json=yes']]])(
    '%j exits 2 with one line on stderr and nothing on stdout',
    (args) => {
      const t = setup();
      const before = snapshotTree(t.home);
      expectOneLineError(t.cli(...args), 2);
      expect(snapshotTree(t.home)).toEqual(before);
    },
  );
});
