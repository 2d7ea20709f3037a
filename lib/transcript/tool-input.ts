// Facts about Claude Code's built-in tool inputs that more than one area needs.
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** File paths a tool call names: Read/Write/Edit/MultiEdit/NotebookEdit, Grep/Glob roots. */
export function filesOf(input: unknown): string[] {
  if (!isObj(input)) return [];
  const out = new Set<string>();
  for (const key of ['file_path', 'notebook_path', 'path']) {
    const v = input[key];
    if (typeof v === 'string' && v !== '') out.add(v);
  }
  if (Array.isArray(input.edits)) {
    for (const e of input.edits) if (isObj(e) && typeof e.file_path === 'string') out.add(e.file_path);
  }
  return [...out];
}
