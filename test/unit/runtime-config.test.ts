// lib/runtime/config.ts: defaults < user file < project file < environment, each key validated on its
// own (an invalid value keeps the lower layer and is reported), unknown keys and non-object files are
// problems, env strings coerced to the key's type.
import { describe, expect, it } from 'vitest';
import { budgetShape, configKeys, defaultConfig, isDisabledByEnv, loadConfig } from '../../lib/runtime/config.ts';

const json = (v: unknown) => JSON.stringify(v);

describe('loadConfig precedence', () => {
  it('rejects a project memory dir outside the project', () => {
    for (const bad of ['/etc/memory', '../elsewhere', 'docs/../../x']) {
      const { config, problems } = loadConfig({ env: { CTXL_PROJECT_MEMORY_DIR: bad } });
      expect(config.projectMemoryDir).toBe('docs/memory');
      expect(problems[0]?.key).toBe('projectMemoryDir');
    }
  });

  it('gives the defaults when nothing is set', () => {
    const { config, problems } = loadConfig({ env: {} });
    expect(config).toEqual(defaultConfig);
    expect(config).toEqual({
      disabled: false,
      logLevel: 'warn',
      breakerFailures: 3,
      breakerCooldownSeconds: 300,
      windowTokens: 0,
      archiveToolOutputBytes: 16_384,
      sessionStartStatus: true,
      sessionStartTokens: 2_500,
      projectMemory: true,
      projectMemoryDir: 'docs/memory',
      zones: '10/10/65/15',
      levels: '60/75/90',
      stubs: true,
      stubMinBytes: 8_192,
      stubMinBytesTight: 3_072,
      advice: true,
    });
    expect(problems).toEqual([]);
  });

  it('validates the zones and levels and reads them back as numbers', () => {
    const { config, problems } = loadConfig({ env: { CTXL_ZONES: '5/10/70/15', CTXL_LEVELS: '50/70/85' } });
    expect(budgetShape(config)).toEqual({ zones: { system: 5, ledger: 10, working: 70, buffer: 15 }, thresholds: [50, 70, 85] });
    expect(problems).toEqual([]);
    for (const [zones, levels] of [
      ['10/10/60/15', '60/75/90'],
      ['10/10/65', '60/75/90'],
      ['10/10/65/15', '75/60/90'],
      ['a/b/c/d', '60/75'],
    ]) {
      const bad = loadConfig({ env: { CTXL_ZONES: zones, CTXL_LEVELS: levels } });
      expect(bad.problems.length).toBeGreaterThan(0);
      // The bad value is replaced by the default: the budget stays whole.
      expect(budgetShape(bad.config)).toEqual({ zones: { system: 10, ledger: 10, working: 65, buffer: 15 }, thresholds: [60, 75, 90] });
    }
  });

  it('applies default < user < project < env, key by key', () => {
    const { config, problems } = loadConfig({
      env: { CTXL_BREAKER_FAILURES: '9' },
      userText: json({ logLevel: 'info', breakerFailures: 5, windowTokens: 500_000 }),
      projectText: json({ logLevel: 'debug', breakerFailures: 7 }),
    });
    expect(problems).toEqual([]);
    expect(config.logLevel).toBe('debug'); // project over user
    expect(config.breakerFailures).toBe(9); // env over project
    expect(config.windowTokens).toBe(500_000); // user over default
    expect(config.breakerCooldownSeconds).toBe(300); // default
  });

  it('every key has an env var and a default that passes its own schema', () => {
    for (const [key, spec] of Object.entries(configKeys)) {
      expect(spec.env, key).toMatch(/^CTXL_[A-Z_]+$/);
      expect(spec.schema().safeParse(spec.default).success, key).toBe(true);
    }
  });
});

describe('invalid values', () => {
  it('keeps the lower layer’s value and reports the bad one', () => {
    const { config, problems } = loadConfig({
      env: {},
      userText: json({ breakerFailures: 5 }),
      projectText: json({ breakerFailures: -1 }),
    });
    expect(config.breakerFailures).toBe(5);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ key: 'breakerFailures', source: 'project' });
    expect(problems[0]?.message).toContain('-1');
  });

  it('reports each invalid key separately and keeps the valid ones of the same file', () => {
    const { config, problems } = loadConfig({
      env: {},
      userText: json({ logLevel: 'verbose', breakerFailures: 2.5, windowTokens: '100000', sessionStartStatus: 'no', breakerCooldownSeconds: 60 }),
    });
    expect(config).toEqual({ ...defaultConfig, breakerCooldownSeconds: 60 });
    expect(problems.map((p) => p.key).sort()).toEqual(['breakerFailures', 'logLevel', 'sessionStartStatus', 'windowTokens']);
    expect(problems.every((p) => p.source === 'user')).toBe(true);
  });

  it('an invalid env value keeps the file value', () => {
    const { config, problems } = loadConfig({ env: { CTXL_LOG_LEVEL: 'loud' }, projectText: json({ logLevel: 'error' }) });
    expect(config.logLevel).toBe('error');
    expect(problems).toEqual([expect.objectContaining({ key: 'logLevel', source: 'env' })]);
  });

  it('reports unknown keys and ignores them', () => {
    const { config, problems } = loadConfig({ env: {}, userText: json({ logLevle: 'debug', logLevel: 'info' }) });
    expect(config.logLevel).toBe('info');
    expect(problems).toEqual([expect.objectContaining({ key: 'logLevle', source: 'user' })]);
    expect(problems[0]?.message).toMatch(/unknown key/);
  });

  it('accepts $schema and version in files without a problem', () => {
    const { config, problems } = loadConfig({ env: {}, userText: json({ $schema: 'https://example.com/s.json', version: 1, windowTokens: 1_000_000 }) });
    expect(problems).toEqual([]);
    expect(config.windowTokens).toBe(1_000_000);
  });
});

describe('files that are not JSON objects', () => {
  it.each([
    ['invalid JSON', '{ "logLevel": "info", }'],
    ['an array', '["logLevel"]'],
    ['a number', '42'],
    ['a string', '"debug"'],
    ['null', 'null'],
  ])('reports a user file that is %s and uses nothing from it', (_what, text) => {
    const { config, problems } = loadConfig({ env: {}, userText: text, projectText: json({ breakerFailures: 4 }) });
    expect(config).toEqual({ ...defaultConfig, breakerFailures: 4 });
    expect(problems).toEqual([expect.objectContaining({ key: '*', source: 'user' })]);
  });

  it('reports a bad project file as the project’s', () => {
    const { problems } = loadConfig({ env: {}, projectText: '[]' });
    expect(problems).toEqual([expect.objectContaining({ key: '*', source: 'project' })]);
  });

  it('treats an empty or blank file as absent', () => {
    expect(loadConfig({ env: {}, userText: '', projectText: '  \n' }).problems).toEqual([]);
  });
});

describe('environment coercion', () => {
  it.each([
    ['1', true],
    ['true', true],
    ['YES', true],
    ['on', true],
    ['0', false],
    ['false', false],
    ['No', false],
    ['off', false],
  ])('CTXL_SESSION_START_STATUS=%s → %s', (raw, expected) => {
    const { config, problems } = loadConfig({ env: { CTXL_SESSION_START_STATUS: raw }, userText: json({ sessionStartStatus: !expected }) });
    expect(problems).toEqual([]);
    expect(config.sessionStartStatus).toBe(expected);
  });

  it('reads numbers from env strings', () => {
    const { config, problems } = loadConfig({ env: { CTXL_WINDOW_TOKENS: '1000000', CTXL_BREAKER_COOLDOWN_SECONDS: ' 60 ' } });
    expect(problems).toEqual([]);
    expect(config.windowTokens).toBe(1_000_000);
    expect(config.breakerCooldownSeconds).toBe(60);
  });

  it('reports env values of the wrong type and keeps the lower layer', () => {
    const { config, problems } = loadConfig({
      env: { CTXL_WINDOW_TOKENS: 'lots', CTXL_DISABLE: 'maybe', CTXL_BREAKER_FAILURES: '1.5' },
      userText: json({ windowTokens: 300_000 }),
    });
    expect(config.windowTokens).toBe(300_000);
    expect(config.disabled).toBe(false);
    expect(config.breakerFailures).toBe(3);
    expect(problems.map((p) => `${p.source}:${p.key}`).sort()).toEqual(['env:breakerFailures', 'env:disabled', 'env:windowTokens']);
  });

  it('ignores empty env values', () => {
    const { config, problems } = loadConfig({ env: { CTXL_LOG_LEVEL: '' }, userText: json({ logLevel: 'info' }) });
    expect(problems).toEqual([]);
    expect(config.logLevel).toBe('info');
  });

  it('isDisabledByEnv accepts only truthy spellings', () => {
    expect(isDisabledByEnv({ CTXL_DISABLE: '1' })).toBe(true);
    expect(isDisabledByEnv({ CTXL_DISABLE: 'TRUE' })).toBe(true);
    expect(isDisabledByEnv({ CTXL_DISABLE: '0' })).toBe(false);
    expect(isDisabledByEnv({ CTXL_DISABLE: '' })).toBe(false);
    expect(isDisabledByEnv({})).toBe(false);
  });
});
