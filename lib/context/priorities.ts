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
