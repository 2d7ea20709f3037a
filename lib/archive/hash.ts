// Chunk ids: a 64-bit hash of a chunk's identity as 16 hex characters. Not cryptographic (nothing is
// secret or adversarial here); node:crypto would cost every archiving hook ~2 ms just to load.
// Two 32-bit lanes of the cyrb53 mixing; at 10^6 chunks a collision has odds below 1 in 10^7.
export function chunkHash(input: string): string {
  return hashChars(input, 1, 0xdeadbeef, 0x41c6ce57);
}

/**
 * Characters a sample hash reads at most: cheap for a hook whatever the text's length (a short-lived
 * process runs such a loop in V8's interpreter, ~25 ns a character, until it is compiled).
 */
const SAMPLE_CHARS = 4_096;

/**
 * A hash of a text's length and of characters spread evenly over it (all of them up to 4 K): what
 * an archive job compares, beside the file's size and modification time, to tell whether a file's
 * lines are still the text a Read returned. Hashing all of 1 MB costs a hook ~3.5 ms; this ~0.1 ms.
 */
export function sampleHash(text: string): string {
  const step = Math.max(1, Math.ceil(text.length / SAMPLE_CHARS));
  return hashChars(text, step, 0xdeadbeef ^ text.length, 0x41c6ce57 ^ step);
}

/**
 * A 32-bit hash of every character of a chunk's text (FNV-1a), written beside it: a file whose text
 * was overwritten in place keeps its length, and only this tells. Not cryptographic: it catches a
 * damaged disk or a stray write, not a forger (who could rewrite the frontmatter as well).
 */
export function textHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16).padStart(8, '0');
}

function hashChars(input: string, step: number, seed1: number, seed2: number): string {
  let h1 = seed1;
  let h2 = seed2;
  for (let i = 0; i < input.length; i += step) {
    const c = input.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
}
