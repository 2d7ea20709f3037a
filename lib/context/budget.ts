// The four-zone budget (DESIGN "Four-zone budget"), pure. The window splits into System (system
// prompt, tools, CLAUDE.md: measured from the session's first request), Ledger (what hooks injected
// since the last compaction), Working (the conversation) and Buffer (headroom before Claude Code's own
// auto-compaction). The compression level follows how full the Working zone is.
import { thousands } from './thousands.ts';

export type Level = 0 | 1 | 2 | 3;
/** Level names as the design writes them: the step that level starts. */
export const LEVEL_NAMES = ['none', 'L0→L1', 'L1→L2', 'L2→L3'] as const;

export interface ZoneRatios {
  system: number;
  ledger: number;
  working: number;
  buffer: number;
}

export interface BudgetInput {
  window: number;
  /** Tokens in the context now; undefined when nothing was measured yet. */
  contextTokens: number | undefined;
  /** The first request's usage (system prompt, tools, CLAUDE.md); undefined: not measured yet. */
  systemTokens: number | undefined;
  /** Tokens hooks injected since the last compaction. */
  ledgerTokens: number;
  /** Percentages of the window; they sum to 100. */
  zones: ZoneRatios;
  /** Working-zone use (percent) where L0→L1, L1→L2 and L2→L3 start. */
  thresholds: readonly [number, number, number];
  /** Where Claude Code compacts by itself (tokens). */
  autoCompactAt: number;
}

export interface Zone {
  /** Tokens in the zone now. */
  tokens: number;
  /** The zone's size in tokens. */
  size: number;
}

export interface Budget {
  window: number;
  contextTokens: number;
  measured: boolean;
  zones: { system: Zone; ledger: Zone; working: Zone; buffer: Zone };
  /** Working tokens over the Working zone's size (may pass 1 just before a compaction). */
  workingUse: number;
  level: Level;
  autoCompactAt: number;
}

const SYSTEM_CAP_PERCENT = 35;

export function computeBudget(input: BudgetInput): Budget {
  const window = Math.max(1, input.window);
  const pct = (p: number) => Math.round((window * p) / 100);
  const context = Math.max(0, input.contextTokens ?? 0);
  // The buffer is at least what Claude Code keeps free before it compacts, so L2→L3 fires first.
  const buffer = Math.max(pct(input.zones.buffer), window - input.autoCompactAt);
  // A first request larger than any system prompt (a forked session's copied history) is not all
  // System: at most 35% of the window counts as such.
  const measuredSystem = input.systemTokens === undefined ? undefined : Math.min(input.systemTokens, pct(SYSTEM_CAP_PERCENT));
  const systemTokens = Math.min(context, measuredSystem ?? Math.min(context, pct(input.zones.system)));
  const ledgerTokens = Math.min(Math.max(0, context - systemTokens), Math.max(0, input.ledgerTokens));
  const systemSize = Math.max(pct(input.zones.system), systemTokens);
  const ledgerSize = Math.max(pct(input.zones.ledger), ledgerTokens);
  // What System or Ledger take beyond their share comes out of Working, never out of the buffer.
  const workingSize = Math.max(1, Math.min(pct(input.zones.working), window - buffer - systemSize - ledgerSize));
  const workingTokens = Math.max(0, context - systemTokens - ledgerTokens);
  const workingUse = workingTokens / workingSize;
  // In percent from the integers: 29 of 100 is 29, not 28.999… (which would miss a threshold of 29).
  const usePercent = (workingTokens * 100) / workingSize;
  return {
    window,
    contextTokens: context,
    measured: input.contextTokens !== undefined && input.contextTokens > 0,
    zones: {
      system: { tokens: systemTokens, size: systemSize },
      ledger: { tokens: ledgerTokens, size: ledgerSize },
      working: { tokens: workingTokens, size: workingSize },
      buffer: { tokens: Math.max(0, context - (window - buffer)), size: buffer },
    },
    workingUse,
    level: levelFor(usePercent, input.thresholds),
    autoCompactAt: input.autoCompactAt,
  };
}

/** Percent comparisons forgive float noise far below a token. */
const EPSILON = 1e-9;

export function levelFor(usePercent: number, thresholds: readonly [number, number, number]): Level {
  const use = usePercent + EPSILON;
  if (use >= thresholds[2]) return 3;
  if (use >= thresholds[1]) return 2;
  if (use >= thresholds[0]) return 1;
  return 0;
}

/** The state Stop keeps to advise once per crossing. */
export interface AdviceState {
  /** The highest level announced since the use last fell clear of it. */
  announced: Level;
}

/**
 * A crossing is announced once: the level rises above what was announced. The announcement re-arms
 * only when the use falls `hysteresis` points (or more) below the threshold of the announced level (a session
 * hovering at 75% hears about it once), or after a compaction empties the window.
 */
export function adviseCrossing(
  state: AdviceState,
  budget: Pick<Budget, 'level' | 'workingUse'>,
  thresholds: readonly [number, number, number],
  hysteresis: number,
): { state: AdviceState; crossed: Level | undefined } {
  const use = budget.workingUse * 100;
  let announced = state.announced;
  while (announced > 0 && use <= (thresholds[announced - 1] as number) - hysteresis + EPSILON) announced = (announced - 1) as Level;
  if (budget.level > announced) return { state: { announced: budget.level }, crossed: budget.level };
  return { state: { announced }, crossed: undefined };
}

/** A one-line bar of the four zones (for a terminal), `width` cells wide. */
export function zoneBar(budget: Budget, width = 40): string {
  const cell = budget.window / width;
  const cells = (tokens: number) => Math.round(tokens / cell);
  const { system, ledger, working, buffer } = budget.zones;
  const free = (zone: Zone) => Math.max(0, cells(zone.size) - cells(zone.tokens));
  const bar =
    '█'.repeat(cells(system.tokens)) +
    '░'.repeat(free(system)) +
    '▓'.repeat(cells(ledger.tokens)) +
    '░'.repeat(free(ledger)) +
    '█'.repeat(cells(Math.min(working.tokens, working.size))) +
    '·'.repeat(free(working)) +
    '!'.repeat(cells(buffer.tokens)) +
    ' '.repeat(free(buffer));
  return `[${bar.slice(0, width + 4)}]`;
}

/** Zones as lines: name, tokens of size, share of the window. */
export function zoneLines(budget: Budget): string[] {
  const fmt = thousands;
  const pct = (n: number, of: number) => `${Math.round((n / Math.max(1, of)) * 100)}%`;
  const { system, ledger, working, buffer } = budget.zones;
  return [
    `System   ${fmt(system.tokens)} of ${fmt(system.size)} tokens (${pct(system.tokens, system.size)})`,
    `Ledger   ${fmt(ledger.tokens)} of ${fmt(ledger.size)} tokens (${pct(ledger.tokens, ledger.size)})`,
    `Working  ${fmt(working.tokens)} of ${fmt(working.size)} tokens (${pct(working.tokens, working.size)}) · level ${LEVEL_NAMES[budget.level]}`,
    `Buffer   ${fmt(buffer.size)} tokens kept free; Claude Code compacts at ${fmt(budget.autoCompactAt)}`,
  ];
}

/** The plain object `ctxl status --json` and `/recall stats` report. */
export function budgetJson(budget: Budget) {
  return {
    window: budget.window,
    contextTokens: budget.contextTokens,
    measured: budget.measured,
    autoCompactAt: budget.autoCompactAt,
    workingUse: Math.round(budget.workingUse * 1000) / 1000,
    level: budget.level,
    levelName: LEVEL_NAMES[budget.level],
    zones: budget.zones,
  };
}
