// What each phase keeps first when the context is compacted (DESIGN "Phases"): planning keeps
// requirements and constraints, design decisions and interfaces, implementation the current files
// and test results, testing the failures, review the findings. Every phase keeps the rest after.
import { itemLine, type SessionDigest } from './session-digest.ts';

export type SectionName = 'requirements' | 'constraints' | 'decisions' | 'values' | 'files' | 'tests' | 'failures' | 'open' | 'next';

const ORDER: Record<string, SectionName[]> = {
  planning: ['requirements', 'constraints', 'decisions', 'open', 'next', 'values', 'failures', 'files', 'tests'],
  design: ['decisions', 'constraints', 'requirements', 'values', 'open', 'next', 'failures', 'files', 'tests'],
  implementation: ['files', 'tests', 'failures', 'values', 'decisions', 'constraints', 'next', 'open', 'requirements'],
  testing: ['failures', 'tests', 'files', 'values', 'decisions', 'constraints', 'next', 'open', 'requirements'],
  // Review findings are what it leaves open.
  review: ['open', 'decisions', 'constraints', 'failures', 'values', 'files', 'tests', 'next', 'requirements'],
  unknown: ['decisions', 'constraints', 'values', 'failures', 'tests', 'files', 'open', 'next', 'requirements'],
};

export function sectionOrder(phase: string): SectionName[] {
  return ORDER[phase] ?? (ORDER.unknown as SectionName[]);
}

const TITLES: Record<SectionName, (phase: string) => string> = {
  requirements: () => 'Requirements',
  constraints: () => "The user's constraints",
  decisions: () => 'Decisions',
  values: () => 'Exact values set',
  files: () => 'Files being changed',
  tests: () => 'Latest test runs',
  failures: () => 'Failing tests',
  open: (phase) => (phase === 'review' ? 'Findings and open items' : 'Open items'),
  next: () => 'Next steps',
};

export interface Section {
  name: SectionName;
  title: string;
  lines: string[];
}

/** The digest's sections in the phase's order, empty ones dropped. */
export function prioritized(d: SessionDigest, options: { refs: boolean }): Section[] {
  const lines: Record<SectionName, string[]> = {
    requirements: d.requirements.map((i) => itemLine(i, options.refs)),
    constraints: d.constraints.map((i) => itemLine(i, options.refs)),
    decisions: d.decisions.map((i) => itemLine(i, options.refs)),
    values: d.values.map((i) => itemLine(i, options.refs)),
    files: d.files.map((f) => `\`${f}\``),
    tests: d.tests,
    failures: d.failures,
    open: d.open.map((i) => itemLine(i, options.refs)),
    next: d.next.map((i) => itemLine(i, options.refs)),
  };
  return sectionOrder(d.phase)
    .map((name) => ({ name, title: TITLES[name](d.phase), lines: lines[name] }))
    .filter((s) => s.lines.length > 0);
}

/**
 * Fit sections into `room` characters, newest items first within a section and every section a
 * few (`passes[0]`) before any gets more (up to `passes[1]`): the ids a header promises are there.
 * Returns each kept section as its title and `- item` lines, in the sections' order.
 */
export function fitSections(
  sections: readonly Section[],
  room: number,
  options: { passes: readonly [number, number]; itemChars: number; blankBefore: boolean },
): string[] {
  let used = 0;
  const kept = sections.map(() => [] as string[]);
  for (const limit of options.passes) {
    for (const [i, section] of sections.entries()) {
      const taken = kept[i] as string[];
      for (const line of [...section.lines].reverse().slice(taken.length)) {
        if (taken.length >= limit) break;
        const text = `- ${clip(line, options.itemChars)}`;
        const titleCost = taken.length === 0 ? section.title.length + 2 + (options.blankBefore ? 1 : 0) : 0;
        if (used + text.length + 1 + titleCost > room) break;
        taken.push(text);
        used += text.length + 1 + titleCost;
      }
    }
  }
  const out: string[] = [];
  for (const [i, section] of sections.entries()) {
    const taken = kept[i] as string[];
    if (taken.length > 0) out.push(...(options.blankBefore ? [''] : []), `${section.title}:`, ...taken.reverse());
  }
  return out;
}

export const clip = (t: string, max: number) => (t.length <= max ? t : `${t.slice(0, max - 1)}…`);
