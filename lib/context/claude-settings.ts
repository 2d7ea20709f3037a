// The few Claude Code settings that decide the window: `model` and `autoCompactWindow`, from user,
// project and local settings (later wins, as in Claude Code).
import { join } from 'node:path';
import type { Config } from '../runtime/config.ts';
import { configDir, type Env } from '../runtime/paths.ts';
import { readTextFile } from '../runtime/store.ts';
import { contextWindow, type WindowInput } from './window.ts';

export interface WindowSettings {
  model?: string;
  autoCompactWindow?: number;
}

export function windowSettings(texts: ReadonlyArray<string | undefined>): WindowSettings {
  const out: WindowSettings = {};
  for (const text of texts) {
    if (text === undefined) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const { model, autoCompactWindow } = value as Record<string, unknown>;
    if (typeof model === 'string' && model !== '') out.model = model;
    if (typeof autoCompactWindow === 'number') out.autoCompactWindow = autoCompactWindow;
  }
  return out;
}

/** Settings files in precedence order, lowest first (managed settings are out of reach here). */
export function settingsFiles(config: string, projectRoot: string): string[] {
  return [join(config, 'settings.json'), join(projectRoot, '.claude', 'settings.json'), join(projectRoot, '.claude', 'settings.local.json')];
}

/** The window of a session: hook input model, then the transcript's, then env and settings. */
export function sessionWindow(input: { env: Env; config: Config; projectRoot: string; models: ReadonlyArray<string | undefined> }): number {
  return contextWindow(windowInput(input));
}

/** What decides the window, read from Claude Code's settings files (also for `windowNotes`). */
export function windowInput(input: { env: Env; config: Config; projectRoot: string; models: ReadonlyArray<string | undefined> }): WindowInput {
  const settings = windowSettings(settingsFiles(configDir(input.env), input.projectRoot).map(readTextFile));
  return {
    models: [...input.models, settings.model],
    env: input.env,
    configured: input.config.windowTokens,
    autoCompactWindow: settings.autoCompactWindow,
  };
}
