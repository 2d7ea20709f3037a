// Terminal escape sequences out of a text: tool output keeps the colours a command printed, and
// `\x1b[32m` would become words of the index and noise in a test summary. Pure.

// CSI (colours, cursor moves), OSC (titles, hyperlinks) and two-character escapes.
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are what this removes
const ANSI = /\x1b(?:\[[0-9;?]{0,32}[ -/]{0,4}[@-~]|\][^\x07\x1b]{0,2048}(?:\x07|\x1b\\)|[@-_])/g;

/** The text without ANSI escape sequences (the same string when it has none). */
export const stripAnsi = (text: string): string => (text.includes('\x1b') ? text.replace(ANSI, '') : text);
