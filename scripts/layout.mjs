// Prints the source layout with line counts, for the table in AGENTS.md (`node scripts/layout.mjs`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['hooks', 'lib', 'test', 'bench', 'scripts', 'commands', 'skills'];
const skip = new Set(['node_modules', 'results', 'fixtures']);
const rows = [];
const walk = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (skip.has(name)) continue;
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(ts|mjs|md)$/.test(name)) rows.push([path, readFileSync(path, 'utf8').split('\n').length - 1]);
  }
};
for (const root of roots) walk(root);
for (const [path, lines] of rows) console.log(`${path.padEnd(44)} ${String(lines).padStart(5)}`);
