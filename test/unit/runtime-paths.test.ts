// lib/runtime/paths.ts: names from outside (session ids, …) never escape their folder; config and data
// dirs follow CLAUDE_CONFIG_DIR / CTXL_HOME.
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeProjectDirName, configDir, dataDir, sanitizeName } from '../../lib/runtime/paths.ts';

const HOSTILE = [
  '../../x',
  '..',
  '.',
  '...',
  '',
  '/',
  '/etc/passwd',
  '..\\..\\windows',
  'a/../../b',
  'C:\\Users\\x',
  'x\0y',
  '\n',
  ' ',
  '~',
  '$HOME',
  'a'.repeat(1_000),
  '.'.repeat(300),
  `${'.'.repeat(127)}/`,
  'café-😀-中文',
  '😀'.repeat(100),
  '%2e%2e%2f',
  'e9274768-9792-47d1-a2a9-b71b858d4e3b',
];

describe('sanitizeName', () => {
  it.each(HOSTILE.map((s) => [JSON.stringify(s).slice(0, 40), s] as const))('%s becomes one safe path segment', (_label, raw) => {
    const name = sanitizeName(raw);
    expect(name).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    expect(name).not.toMatch(/^\.+$/);
    const base = resolve('/data/sessions');
    const joined = join(base, name);
    expect(joined.startsWith(base + sep)).toBe(true);
    expect(relative(base, joined)).toBe(name);
  });

  it('keeps ordinary session ids unchanged', () => {
    for (const id of ['e9274768-9792-47d1-a2a9-b71b858d4e3b', 'agent-a0ad4f44468bdf20d', 'session_1.v2']) expect(sanitizeName(id)).toBe(id);
  });

  it('replaces every other character by one underscore per UTF-16 unit', () => {
    expect(sanitizeName('../../x')).toBe('.._.._x');
    expect(sanitizeName('a b/c')).toBe('a_b_c');
    expect(sanitizeName('é')).toBe('_');
    expect(sanitizeName('😀')).toBe('__');
  });

  it('cuts at 128 characters', () => {
    expect(sanitizeName('x'.repeat(500))).toBe('x'.repeat(128));
  });

  it('prefixes names made only of dots, and the empty name', () => {
    expect(sanitizeName('')).toBe('_');
    expect(sanitizeName('.')).toBe('_.');
    expect(sanitizeName('..')).toBe('_..');
    expect(sanitizeName('.'.repeat(200))).toBe(`_${'.'.repeat(127)}`);
  });
});

describe('configDir and dataDir', () => {
  it('default to ~/.claude and ~/.claude/memory', () => {
    expect(configDir({ HOME: '/home/u' })).toBe(join('/home/u', '.claude'));
    expect(dataDir({ HOME: '/home/u' })).toBe(join('/home/u', '.claude', 'memory'));
  });

  it('follow CLAUDE_CONFIG_DIR and CTXL_HOME', () => {
    expect(configDir({ HOME: '/home/u', CLAUDE_CONFIG_DIR: '/cfg' })).toBe(resolve('/cfg'));
    expect(dataDir({ HOME: '/home/u', CLAUDE_CONFIG_DIR: '/cfg' })).toBe(join(resolve('/cfg'), 'memory'));
    expect(dataDir({ HOME: '/home/u', CLAUDE_CONFIG_DIR: '/cfg', CTXL_HOME: '/data' })).toBe(resolve('/data'));
  });

  it('make relative overrides absolute and ignore empty ones', () => {
    expect(dataDir({ HOME: '/home/u', CTXL_HOME: 'rel/data' })).toBe(resolve('rel/data'));
    expect(configDir({ HOME: '/home/u', CLAUDE_CONFIG_DIR: '' })).toBe(join('/home/u', '.claude'));
  });
});

describe('claudeProjectDirName', () => {
  it('matches Claude Code’s sanitised folder names (reference §5.1)', () => {
    expect(claudeProjectDirName('/home/user/proj')).toBe('-home-user-proj');
    expect(claudeProjectDirName('/Users/me/my.app')).toBe('-Users-me-my-app');
  });

  it('cuts long paths to 200 chars plus a hash of the original', () => {
    const long = `/${'a'.repeat(300)}`;
    const name = claudeProjectDirName(long);
    expect(name.startsWith(`-${'a'.repeat(199)}-`)).toBe(true);
    expect(name).toMatch(/^-a{199}-[0-9a-z]+$/);
    expect(claudeProjectDirName(`/${'a'.repeat(299)}b`)).not.toBe(name);
  });
});
