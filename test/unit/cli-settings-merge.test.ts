// lib/cli/settings-merge.ts: pure edits of a settings object. Ours are recognised by path, added once,
// removed without touching anything else.
import { describe, expect, it } from 'vitest';
import {
  addOurHooks,
  countOurHooks,
  deepEqual,
  detectIndent,
  type HooksByEvent,
  isOurCommand,
  ourEnabledPlugins,
  removeOurHooks,
  resolveHooks,
} from '../../lib/cli/settings-merge.ts';

const PLUGIN_HOOKS: HooksByEvent = {
  SessionStart: [{ hooks: [{ type: 'command', command: 'node "${CLAUDE_PLUGIN_ROOT}/dist/session-start.mjs"', timeout: 10 }] }],
  Stop: [{ hooks: [{ type: 'command', command: 'node "${CLAUDE_PLUGIN_ROOT}/dist/stop.mjs"', timeout: 30 }] }],
};
const ours = resolveHooks(PLUGIN_HOOKS, '/home/u/.claude/context-lifecycle');
const userStop = { hooks: [{ type: 'command', command: 'say done' }] };

describe('resolveHooks', () => {
  it('replaces the plugin root with the absolute runtime dir', () => {
    expect(ours.Stop?.[0]?.hooks[0]?.command).toBe('node "/home/u/.claude/context-lifecycle/dist/stop.mjs"');
    expect(ours.Stop?.[0]?.hooks[0]?.timeout).toBe(30);
  });

  it('escapes characters that are special inside double quotes', () => {
    const r = resolveHooks(PLUGIN_HOOKS, '/home/a"b$c`d\\e/context-lifecycle');
    expect(r.Stop?.[0]?.hooks[0]?.command).toBe('node "/home/a\\"b\\$c\\`d\\\\e/context-lifecycle/dist/stop.mjs"');
  });
});

describe('isOurCommand', () => {
  it('recognises our runtime by its folder, wherever it is', () => {
    expect(isOurCommand('node "/x/y/context-lifecycle/dist/stop.mjs"')).toBe(true);
    expect(isOurCommand('node C:\\Users\\u\\.claude\\context-lifecycle\\dist\\session-end.mjs')).toBe(true);
    expect(isOurCommand('node "/x/other-plugin/dist/stop.mjs"')).toBe(false);
    expect(isOurCommand('echo context-lifecycle')).toBe(false);
    expect(isOurCommand(42)).toBe(false);
  });
});

describe('addOurHooks and removeOurHooks', () => {
  it('appends ours after the user’s groups and keeps other keys', () => {
    const settings = { model: 'opus', hooks: { Stop: [userStop] } };
    const next = addOurHooks(settings, ours);
    expect(next.model).toBe('opus');
    expect((next.hooks as HooksByEvent).Stop).toEqual([userStop, ...(ours.Stop ?? [])]);
    expect((next.hooks as HooksByEvent).SessionStart).toEqual(ours.SessionStart);
    expect(settings.hooks.Stop).toEqual([userStop]); // input not mutated
  });

  it('is idempotent', () => {
    const once = addOurHooks({ hooks: { Stop: [userStop] } }, ours);
    expect(addOurHooks(once, ours)).toEqual(once);
    expect(countOurHooks(addOurHooks(once, ours))).toEqual(
      new Map([
        ['SessionStart', 1],
        ['Stop', 1],
      ]),
    );
  });

  it('replaces a stale install at another path instead of adding a second one', () => {
    const old = addOurHooks({}, resolveHooks(PLUGIN_HOOKS, '/old/place/context-lifecycle'));
    const next = addOurHooks(old, ours);
    expect(countOurHooks(next)).toEqual(
      new Map([
        ['SessionStart', 1],
        ['Stop', 1],
      ]),
    );
    expect(JSON.stringify(next)).not.toContain('/old/place');
  });

  it('removes only our handlers, keeping a user handler in the same group', () => {
    const mixed = {
      hooks: {
        Stop: [
          {
            matcher: '',
            hooks: [
              { type: 'command', command: 'say done' },
              { type: 'command', command: 'node "/a/context-lifecycle/dist/stop.mjs"' },
            ],
          },
        ],
      },
    };
    const { settings, removed } = removeOurHooks(mixed);
    expect(removed).toBe(1);
    expect(settings).toEqual({ hooks: { Stop: [{ matcher: '', hooks: [{ type: 'command', command: 'say done' }] }] } });
  });

  it('drops events and the hooks key that only held ours', () => {
    const { settings, removed } = removeOurHooks(addOurHooks({ model: 'opus' }, ours));
    expect(removed).toBe(2);
    expect(settings).toEqual({ model: 'opus' });
  });

  it('leaves odd shapes it does not understand alone', () => {
    const odd = { hooks: { Stop: 'not an array', Notification: [42, { hooks: 'x' }] } };
    expect(removeOurHooks(odd)).toEqual({ settings: odd, removed: 0 });
  });
});

describe('ourEnabledPlugins, deepEqual, detectIndent', () => {
  it('lists only our enabled plugin ids', () => {
    expect(ourEnabledPlugins({ enabledPlugins: { 'context-lifecycle@a': true, 'context-lifecycle@b': false, 'other@a': true } })).toEqual([
      'context-lifecycle@a',
    ]);
    expect(ourEnabledPlugins({})).toEqual([]);
  });

  it('compares JSON values structurally, ignoring key order', () => {
    expect(deepEqual({ a: [1, { b: 2 }], c: null }, { c: null, a: [1, { b: 2 }] })).toBe(true);
    expect(deepEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
  });

  it('detects the indentation of a settings file', () => {
    expect(detectIndent('{\n    "a": 1\n}')).toBe('    ');
    expect(detectIndent('{\n\t"a": 1\n}')).toBe('\t');
    expect(detectIndent('{"a":1}')).toBe(2);
    expect(detectIndent(undefined)).toBe(2);
  });
});
