// Where the repository, its compiled dist/ and the shared fixtures are, resolved from this file so
// the tests run from any working directory and on any machine.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: three levels above test/unit/helpers. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const distDir = join(repoRoot, 'dist');
/** `<root>/../shared`: fixtures shared between projects; never copied into the repo. */
export const sharedDir = resolve(repoRoot, '..', 'shared');
export const transcriptsDir = join(sharedDir, 'fixtures', 'transcripts');
/** Hook inputs in Claude Code's captured shape, with `${TRANSCRIPT}` and `${CWD}` placeholders. */
export const hookInputDir = join(repoRoot, 'test', 'fixtures', 'hook-input');
