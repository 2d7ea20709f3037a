// The commands the small search program answers (lib/cli/search-main.ts); dist/cli.mjs, built from
// build.mjs, runs that program for these and the whole CLI for anything else. Nothing else lives
// here: the loader bundles this file.
export const SEARCH_COMMANDS: readonly string[] = ['recall', 'show', 'timeline'];
