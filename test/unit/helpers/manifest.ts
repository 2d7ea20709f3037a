// The shared transcript fixtures and their manifest (fixtures/transcripts/manifest.json).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transcriptsDir } from './paths.ts';

export interface ManifestStats {
  lines: number;
  bad: number;
  types: Record<string, number>;
  subtypes: Record<string, number>;
  versions: Record<string, number>;
  blocks: Record<string, number>;
  sidechain: number;
  compactSummary: number;
  maxToolResultChars: number;
  models: Record<string, number>;
  sessions: number;
  maxLineChars: number;
}

export interface ManifestEntry {
  dest: string;
  kind: 'real' | 'synthetic';
  bytes: number;
  stats?: ManifestStats;
}

export function loadManifest(): ManifestEntry[] {
  return JSON.parse(readFileSync(join(transcriptsDir, 'manifest.json'), 'utf8')) as ManifestEntry[];
}

/** Manifest entries that are transcripts with stats, with their absolute path. */
export function transcriptFixtures(): Array<ManifestEntry & { stats: ManifestStats; path: string }> {
  return loadManifest()
    .filter((e): e is ManifestEntry & { stats: ManifestStats } => e.stats !== undefined)
    .map((e) => ({ ...e, path: join(transcriptsDir, e.dest) }));
}

export function fixturePath(dest: string): string {
  return join(transcriptsDir, dest);
}
