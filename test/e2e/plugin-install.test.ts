// The plugin-system install, offline: `ctxl install --plugin` stages a clean runtime copy in
// ~/.claude/context-lifecycle/, runs `claude plugin marketplace add <that folder>` and `claude plugin install context-lifecycle@context-lifecycle` in a temporary HOME; a
// `claude -p` run then fires our hooks; `ctxl uninstall` takes it all out again. Along the way it
// records what the client copied into ~/.claude/plugins/cache and where CLAUDE_PLUGIN_ROOT pointed.
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CtxlData } from '../support/ctxl-data.ts';
import { errorLines, hookProblems, runsOf } from '../support/debug-log.ts';
import { MockAnthropic, requestIncludes, text, toolUse } from '../support/mock-anthropic.ts';
import { type ClaudeResult, makeSandbox, type ProcessResult, runClaude, runCli, type Sandbox } from '../support/run-claude.ts';
import { hookErrorAttachments, readTranscript, sessionStartContexts, transcriptPath } from '../support/transcript.ts';

const PLUGIN_ID = 'context-lifecycle@context-lifecycle';
type Obj = Record<string, unknown>;

function readJson(file: string): Obj {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Obj) : {};
}

/** Total size in bytes of the files under `dir` (symlinks counted as links, not followed). */
function treeSize(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    total += stat.isDirectory() ? treeSize(path) : stat.size;
  }
  return total;
}

describe('plugin install through the real client (marketplace add + plugin install, offline)', () => {
  const bin = inject('claudeBin');
  let mock: MockAnthropic;
  let sandbox: Sandbox;
  let install: ProcessResult;
  let installDebug: string;
  let doctor: ProcessResult;
  let run: ClaudeResult;
  let uninstall: ProcessResult;
  let doctorAfter: ProcessResult;
  let runAfter: ClaudeResult;
  let installPath: string;
  let settingsAfterInstall: Obj;
  let settingsBefore: string | undefined;
  let runtime: string;
  const findings: Obj = {};

  beforeAll(async () => {
    mock = await MockAnthropic.start();
    sandbox = makeSandbox('plugin');
    runtime = join(sandbox.configDir, 'context-lifecycle');
    const settingsFile = join(sandbox.configDir, 'settings.json');
    settingsBefore = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined;
    const debugFile = join(sandbox.root, 'plugin-install-debug.log');
    // DEBUG=1 + CLAUDE_CODE_DEBUG_LOGS_DIR=<file> makes `claude plugin …` write its debug log there.
    install = await runCli(sandbox, ['install', '--plugin'], { CLAUDE_BIN: bin, DEBUG: '1', CLAUDE_CODE_DEBUG_LOGS_DIR: debugFile });
    installDebug = existsSync(debugFile) ? readFileSync(debugFile, 'utf8') : '';
    if (install.code !== 0) throw new Error(`ctxl install --plugin failed (exit ${install.code}): ${install.stdout}${install.stderr}`);
    const installed = readJson(join(sandbox.configDir, 'plugins', 'installed_plugins.json')) as { plugins?: Record<string, Array<{ installPath?: string }>> };
    installPath = installed.plugins?.[PLUGIN_ID]?.[0]?.installPath ?? '';
    settingsAfterInstall = readJson(join(sandbox.configDir, 'settings.json'));
    doctor = await runCli(sandbox, ['doctor', '--json']);

    mock.script(toolUse('Bash', { command: 'echo plugin-marker-7', description: 'Print the plugin marker' }), text('PLUGIN-DONE'));
    run = await runClaude({ bin, sandbox, mock, label: 'plugin', prompt: 'Print the plugin marker.', args: ['--allowedTools', 'Bash(echo:*)'] });

    // What the client did at install time; kept for the report, asserted only where stable.
    const entries = existsSync(installPath) ? readdirSync(installPath).sort() : [];
    const nodeModules = join(installPath, 'node_modules');
    findings.installPath = installPath;
    findings.copiedEntries = entries;
    findings.nodeModulesBytes = existsSync(nodeModules) ? treeSize(nodeModules) : 0;
    findings.cacheBytes = existsSync(installPath) ? treeSize(installPath) : 0;
    findings.npmLines = installDebug.split('\n').filter((l) => /npm ci|dependenc/i.test(l));
    findings.pluginRoot = runsOf(run.debugLog, 'SessionStart', 'startup')[0]?.command.replace(/^node (?:--\S+ )*"(.*)[/\\]dist[/\\]session-start\.mjs"$/, '$1');
    console.log(`[e2e] plugin install findings: ${JSON.stringify(findings, null, 2)}`);

    uninstall = await runCli(sandbox, ['uninstall'], { CLAUDE_BIN: bin });
    doctorAfter = await runCli(sandbox, ['doctor', '--json']);
    mock.script(text('AFTER-UNINSTALL'));
    runAfter = await runClaude({ bin, sandbox, mock, label: 'after-uninstall', prompt: 'Hello again.' });
  });

  afterAll(async () => {
    await mock?.close();
    sandbox?.cleanup();
  });

  it('ctxl install --plugin added the marketplace and enabled the plugin', () => {
    expect(install.code).toBe(0);
    expect(install.stdout).toContain('Successfully installed plugin: context-lifecycle@context-lifecycle');
    expect(settingsAfterInstall.enabledPlugins).toEqual({ [PLUGIN_ID]: true });
    // The marketplace is the staged runtime, not the checkout: deleting the clone keeps the plugin working.
    expect(settingsAfterInstall.extraKnownMarketplaces).toEqual({ 'context-lifecycle': { source: { source: 'directory', path: runtime } } });
    expect(settingsAfterInstall.hooks, 'no plain-install hooks next to the plugin').toBeUndefined();
    expect(installPath).toBe(join(sandbox.configDir, 'plugins', 'cache', 'context-lifecycle', 'context-lifecycle', '0.1.0'));
    expect(installDebug).toMatch(/Caching plugin from source: "[^"]+"/);
  });

  it('the client copied a runnable plugin into ~/.claude/plugins/cache', () => {
    for (const file of ['dist/session-start.mjs', 'dist/cli.mjs', 'hooks.json', '.claude-plugin/plugin.json']) {
      expect(existsSync(join(installPath, file)), `${file} in ${installPath}`).toBe(true);
    }
  });

  it("what a user's install pulls in is small: no toolchain, no lockfile, no npm ci", () => {
    for (const entry of ['node_modules', 'package-lock.json', 'lib', 'test', '.cache']) {
      expect(existsSync(join(installPath, entry)), `${entry} in ${installPath}`).toBe(false);
    }
    expect(findings.nodeModulesBytes).toBe(0);
    expect(findings.cacheBytes as number).toBeLessThan(5 * 1024 * 1024);
  });

  it('doctor --json says ok with the plugin enabled', () => {
    expect(JSON.parse(doctor.stdout)).toEqual({ ok: true, problems: [] });
    expect(doctor.code).toBe(0);
  });

  it('a -p run fires every hook from the installed plugin, without errors', () => {
    expect(run.code, run.describe()).toBe(0);
    expect(run.json?.result).toBe('PLUGIN-DONE');
    const log = run.debugLog;
    for (const [event, matcher] of [
      ['SessionStart', 'startup'],
      ['UserPromptSubmit', undefined],
      ['PostToolUse', 'Bash'],
      ['Stop', undefined],
      ['SessionEnd', 'other'],
    ] as const) {
      const runs = runsOf(log, event, matcher);
      expect(
        runs.map((r) => r.status),
        `${event} in ${run.debugFile}`,
      ).toEqual([0]);
    }
    expect(runsOf(log, 'SessionStart', 'startup')[0]?.plugin).toBe(PLUGIN_ID);
    expect(hookProblems(log), errorLines(log).join('\n')).toEqual([]);
    // CLAUDE_PLUGIN_ROOT is the marketplace source (the staged runtime) or the cache copy, never the clone.
    expect([runtime, installPath]).toContain(findings.pluginRoot);

    const sid = run.sessionId ?? '';
    const transcript = readTranscript(transcriptPath(sandbox.configDir, sandbox.project, sid));
    expect(hookErrorAttachments(transcript)).toEqual([]);
    const injected = sessionStartContexts(transcript, 'startup')[0]?.text ?? '';
    expect(injected.startsWith('[context-lifecycle]')).toBe(true);
    expect(requestIncludes(run.requests[0], `SessionStart hook additional context: ${injected}`)).toBe(true);
    const data = new CtxlData(sandbox.data);
    expect(data.events(sid)).toEqual([expect.objectContaining({ tool: 'Bash', ok: true, command: 'echo plugin-marker-7' })]);
    expect(data.session(sid)?.closedAt).toEqual(expect.any(String));
    expect(data.logErrors()).toEqual([]);
  });

  it('ctxl uninstall removes the plugin and the marketplace, and the hooks stop firing', () => {
    expect(uninstall.code, `${uninstall.stdout}${uninstall.stderr}`).toBe(0);
    const settings = readJson(join(sandbox.configDir, 'settings.json'));
    expect((settings.enabledPlugins as Obj | undefined)?.[PLUGIN_ID]).toBeUndefined();
    expect((settings.extraKnownMarketplaces as Obj | undefined)?.['context-lifecycle']).toBeUndefined();
    const installed = readJson(join(sandbox.configDir, 'plugins', 'installed_plugins.json')) as { plugins?: Obj };
    expect(installed.plugins?.[PLUGIN_ID]).toBeUndefined();
    expect(readJson(join(sandbox.configDir, 'plugins', 'known_marketplaces.json'))['context-lifecycle']).toBeUndefined();
    // settings.json is as it was before the install (absent stays absent).
    const settingsFile = join(sandbox.configDir, 'settings.json');
    expect(existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined).toBe(settingsBefore);
    expect(existsSync(runtime)).toBe(false);

    const report = JSON.parse(doctorAfter.stdout) as { ok: boolean; problems: Array<{ code: string }> };
    expect(report.ok).toBe(false);
    expect(report.problems.map((p) => p.code)).toContain('not-installed');

    expect(runAfter.code, runAfter.describe()).toBe(0);
    expect(runAfter.json?.result).toBe('AFTER-UNINSTALL');
    expect(runsOf(runAfter.debugLog, 'SessionStart')).toEqual([]);
    expect(runAfter.requests.some((r) => requestIncludes(r, '[context-lifecycle]'))).toBe(false);
  });
});
