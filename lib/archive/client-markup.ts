// Claude Code records a typed slash command as markup (`<command-message>…</command-message>
// <command-name>/x</command-name><command-args>…</command-args>`) and the output of its own local
// commands (/compact, /cost) inside `<local-command-stdout>`. L2 keeps them as the user typed and
// saw them: the tag names were words of every such chunk ("command", "message", "args" matched any
// query about commands), the "x is running…" message is the client's, and an empty wrapper made a
// chunk of nothing. Pure.

const TAG = (name: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`);
const NAME = TAG('command-name');
const ARGS = TAG('command-args');
const CONTENTS = TAG('command-contents');
const COMMAND_TAGS = /<(command-(?:name|message|args|contents))>[\s\S]*?<\/\1>/g;
const LOCAL_OUTPUT = /<\/?local-command-(?:stdout|stderr)>/g;

/** A user entry's text as typed (`/x args`) or as printed (a local command's output); other text as is. */
export function typedText(text: string): string {
  if (!text.includes('<command-') && !text.includes('<local-command-')) return text;
  let out = text.replace(LOCAL_OUTPUT, '');
  const name = NAME.exec(out)?.[1]?.trim();
  if (name !== undefined && name !== '') {
    const args = ARGS.exec(out)?.[1]?.trim() ?? '';
    const contents = CONTENTS.exec(out)?.[1]?.trim() ?? '';
    const rest = out.replace(COMMAND_TAGS, '').trim();
    const typed = `${name.startsWith('/') ? name : `/${name}`}${args === '' ? '' : ` ${args}`}`;
    out = [typed, contents, rest].filter((s) => s !== '').join('\n\n');
  }
  return out.trim();
}
