// Realistic Claude Code transcripts (2.1.x line shape), deterministic from a seed: user prompts (some
// with a pasted log), assistant text with inline identifiers, thinking blocks, tool_use/tool_result
// pairs (Read with line-numbered code, Bash with test/build/git/docker output, Grep, Glob, Edit, Write,
// TodoWrite, the odd failing call), usage on every assistant line, attachments and system lines.
// Words follow a Zipf curve over a large vocabulary plus a project-wide pool of identifiers and paths,
// so the index sees a realistic number of distinct terms (identifiers, numbers, hashes, timestamps).
//
// Scripted facts ("plants") can be inserted after a given turn with fixed uuids: the dev set uses them.
// Bump GENERATOR_VERSION whenever the output changes: cached data dirs are keyed by it.
import { createWriteStream } from 'node:fs';
import { COMMANDS, COMMON, DIRS, ERROR_NAMES, EXTENSIONS, RARE, TECH, VERBS } from './words.mjs';

export const GENERATOR_VERSION = 1;

// The same seeded generator as the hook bench's transcripts (mulberry32).
import { rng } from '../lib/synth.mjs';

export { rng };

/** Zipf sampler over a list (weight 1/(rank+q)^s). */
function zipf(list, s = 1.0, q = 2) {
  const cum = new Float64Array(list.length);
  let total = 0;
  for (let i = 0; i < list.length; i++) {
    total += 1 / (i + q) ** s;
    cum[i] = total;
  }
  return (r) => {
    const x = r() * total;
    let lo = 0;
    let hi = list.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return list[lo];
  };
}

const int = (r, lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
const pick = (r, list) => list[Math.floor(r() * list.length)];
const cap = (w) => (w === '' ? w : w[0].toUpperCase() + w.slice(1));
/** Roughly log-normal length around `median`, clamped. */
const sizeAround = (r, median, lo, hi) => Math.max(lo, Math.min(hi, Math.round(median * Math.exp((r() + r() + r() - 1.5) * 1.3))));

function hex(r, n) {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(r() * 16).toString(16);
  return s;
}
export function uuidFrom(r) {
  return `${hex(r, 8)}-${hex(r, 4)}-4${hex(r, 3)}-${pick(r, ['8', '9', 'a', 'b'])}${hex(r, 3)}-${hex(r, 12)}`;
}

// ---------------------------------------------------------------------------------------------------
// Project vocabulary: identifiers and paths shared by every session of one synthesized project.

function buildProject(seed) {
  const r = rng(seed ^ 0x5bd1e995);
  const parts = [...TECH, ...TECH, ...RARE, ...VERBS];
  const idents = new Set();
  while (idents.size < 5000) {
    const n = r() < 0.6 ? 2 : 3;
    const words = [];
    for (let i = 0; i < n; i++) words.push(pick(r, parts));
    const style = r();
    let id;
    if (style < 0.55) id = words[0] + words.slice(1).map(cap).join('');
    else if (style < 0.8) id = words.map(cap).join('');
    else if (style < 0.93) id = words.join('_');
    else id = words.join('_').toUpperCase();
    idents.add(id);
  }
  const identList = [...idents];
  const paths = new Set();
  while (paths.size < 900) {
    const depth = int(r, 1, 3);
    const segs = [];
    for (let i = 0; i < depth; i++) segs.push(i === 0 ? pick(r, DIRS) : r() < 0.5 ? pick(r, DIRS) : pick(r, RARE));
    const base = pick(r, identList).replace(/_/g, '-');
    const name = r() < 0.5 || base === base.toUpperCase() ? base.toLowerCase() : base[0].toLowerCase() + base.slice(1);
    const ext = pick(r, EXTENSIONS);
    const test = ext.startsWith('ts') && r() < 0.2 ? '.test' : '';
    paths.add(`${segs.join('/')}/${name}${test}.${ext}`);
  }
  const pathList = [...paths];
  return { idents: identList, paths: pathList, ident: zipf(identList, 1.05, 5), path: zipf(pathList, 1.0, 5) };
}

// ---------------------------------------------------------------------------------------------------
// Text makers.

function makeText(project, r) {
  const common = zipf(COMMON, 1.0, 1);
  const tech = zipf(TECH, 1.0, 3);
  const rare = zipf(RARE, 0.8, 3);
  const verb = zipf(VERBS, 1.0, 2);
  const word = () => {
    const x = r();
    if (x < 0.5) return common(r);
    if (x < 0.82) return tech(r);
    if (x < 0.88) return rare(r);
    if (x < 0.92) return verb(r);
    if (x < 0.96) return `\`${project.ident(r)}\``;
    if (x < 0.98) return `\`${project.path(r)}\``;
    return String(r() < 0.5 ? int(r, 2, 120) : int(r, 100, 65000));
  };
  const sentence = (min = 6, max = 22) => {
    const n = int(r, min, max);
    const ws = [];
    for (let i = 0; i < n; i++) ws.push(word());
    if (r() < 0.15) ws.splice(int(r, 1, ws.length - 1), 0, ',');
    return `${cap(ws.join(' ').replace(/ ,/g, ','))}${pick(r, ['.', '.', '.', '.', '?', ':'])}`;
  };
  const prose = (chars) => {
    const out = [];
    let size = 0;
    while (size < chars) {
      const para = [];
      const n = int(r, 1, 4);
      for (let i = 0; i < n && size < chars; i++) {
        const s = sentence();
        para.push(s);
        size += s.length + 1;
      }
      out.push(para.join(' '));
      if (r() < 0.12 && size < chars) {
        const items = int(r, 2, 5);
        const list = [];
        for (let i = 0; i < items; i++) list.push(`- ${sentence(3, 10)}`);
        const block = list.join('\n');
        out.push(block);
        size += block.length;
      }
    }
    return out.join('\n\n');
  };
  const code = (chars, startLine = 1) => {
    const lines = [];
    let size = 0;
    let n = startLine;
    let depth = 0;
    while (size < chars) {
      const id = project.ident(r);
      const id2 = project.ident(r);
      const k = r();
      let t;
      if (k < 0.1) {
        t = `export ${r() < 0.5 ? 'async ' : ''}function ${id}(${tech(r)}: ${cap(tech(r))}, ${id2}?: number): Promise<${cap(tech(r))}> {`;
        depth = 1;
      } else if (k < 0.2) t = `const ${id} = await ${id2}(${tech(r)}, { ${tech(r)}: ${int(r, 0, 5000)}, ${tech(r)}: '${tech(r)}' });`;
      else if (k < 0.3) t = `if (${id} === undefined || ${id}.${tech(r)} > ${int(r, 1, 1000)}) return ${id2};`;
      else if (k < 0.4) t = `// ${sentence(4, 14)}`;
      else if (k < 0.48) t = `import { ${id}, ${id2} } from '${project.path(r).replace(/\.\w+$/, '')}';`;
      else if (k < 0.56)
        t = `throw new ${pick(
          r,
          ERROR_NAMES.filter((e) => /Error$/.test(e)),
        )}(\`${sentence(3, 8)} \${${id}}\`);`;
      else if (k < 0.64) t = `${id}.${tech(r)}(${JSON.stringify(`${tech(r)}:${tech(r)}`)}, ${id2});`;
      else if (k < 0.7) t = `for (const ${tech(r)} of ${id}) ${id2}.push(${tech(r)});`;
      else if (k < 0.76) t = `return { ${id}, ${tech(r)}: ${id2}.${tech(r)} ?? ${int(r, 0, 100)} };`;
      else if (k < 0.82) {
        t = '}';
        depth = Math.max(0, depth - 1);
      } else if (k < 0.88) t = `export const ${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')} = ${int(r, 1, 90000)};`;
      else if (k < 0.94) t = `  ${tech(r)}: ${id2}(${tech(r)}),`;
      else t = '';
      const line = `${String(n).padStart(6)}→${'  '.repeat(depth)}${t}`;
      lines.push(line);
      size += line.length + 1;
      n += 1;
    }
    return lines.join('\n');
  };
  const stamp = (ms) => new Date(ms).toISOString();
  const testLog = (chars) => {
    const lines = [];
    let size = 0;
    let failed = 0;
    while (size < chars) {
      const file = project.path(r).replace(/\.\w+$/, '.test.ts');
      const ok = r() > 0.07;
      const line = ok
        ? ` ✓ ${file} > ${sentence(3, 8).slice(0, -1)} ${int(r, 1, 900)}ms`
        : ` × ${file} > ${sentence(3, 8).slice(0, -1)}\n   → ${pick(r, ['AssertionError', 'TypeError', 'TimeoutError'])}: expected ${int(r, 0, 500)} to be ${int(r, 0, 500)}\n     at ${project.ident(r)} (${project.path(r)}:${int(r, 1, 400)}:${int(r, 1, 80)})`;
      if (!ok) failed += 1;
      lines.push(line);
      size += line.length + 1;
    }
    const total = lines.length;
    return `\n RUN  v4.1.${int(r, 0, 12)} ${'/repo'}\n\n${lines.join('\n')}\n\n Test Files  ${failed > 0 ? `${failed} failed | ` : ''}${int(r, 5, 60)} passed\n      Tests  ${failed > 0 ? `${failed} failed | ` : ''}${total - failed} passed (${total})\n   Duration  ${(r() * 20).toFixed(2)}s`;
  };
  const buildLog = (chars) => {
    const lines = [`> ${tech(r)}@${int(r, 0, 3)}.${int(r, 0, 20)}.${int(r, 0, 9)} build`, `> node build.mjs`, ''];
    let size = 0;
    while (size < chars) {
      const k = r();
      let line;
      if (k < 0.5) line = `  dist/${project.path(r).replace(/\.\w+$/, '.mjs')}  ${(r() * 400).toFixed(1)}kb`;
      else if (k < 0.7) line = `${pick(r, ['warning', 'info', 'note'])}: ${sentence(4, 12)} (${project.path(r)}:${int(r, 1, 300)})`;
      else if (k < 0.85)
        line = `${project.path(r)}(${int(r, 1, 300)},${int(r, 1, 60)}): error ${pick(r, ['TS2304', 'TS2339', 'TS2345', 'TS7006', 'TS2322'])}: ${sentence(5, 12)}`;
      else line = `⚡ Done in ${int(r, 20, 4000)}ms`;
      lines.push(line);
      size += line.length + 1;
    }
    return lines.join('\n');
  };
  const gitLog = (chars) => {
    const lines = [];
    let size = 0;
    while (size < chars) {
      const line = `${hex(r, 7)} ${cap(verb(r))} ${sentence(3, 9).slice(0, -1).toLowerCase()}`;
      lines.push(line);
      size += line.length + 1;
    }
    return lines.join('\n');
  };
  const lsLog = (chars) => {
    const lines = [`total ${int(r, 8, 400)}`];
    let size = 0;
    while (size < chars) {
      const p = project.path(r);
      const line = `-rw-r--r--  1 dev  staff  ${String(int(r, 40, 90000)).padStart(6)} ${pick(r, ['Jan', 'Feb', 'Mar', 'Oct', 'Nov'])} ${String(int(r, 1, 28)).padStart(2)} ${String(int(r, 0, 23)).padStart(2, '0')}:${String(int(r, 0, 59)).padStart(2, '0')} ${p.split('/').pop()}`;
      lines.push(line);
      size += line.length + 1;
    }
    return lines.join('\n');
  };
  const serverLog = (chars, ms) => {
    const lines = [];
    let size = 0;
    let t = ms;
    while (size < chars) {
      t += int(r, 1, 4000);
      const lvl = pick(r, ['INFO', 'INFO', 'INFO', 'DEBUG', 'WARN', 'ERROR']);
      const line = `${stamp(t)} ${lvl} [${tech(r)}] ${sentence(4, 12).slice(0, -1)} request_id=${uuidFrom(r)} duration_ms=${int(r, 1, 3000)}${lvl === 'ERROR' ? ` err=${pick(r, ERROR_NAMES)}` : ''}`;
      lines.push(line);
      size += line.length + 1;
    }
    return lines.join('\n');
  };
  const stack = () => {
    const err = pick(
      r,
      ERROR_NAMES.filter((e) => /Error$/.test(e)),
    );
    const lines = [`${err}: ${sentence(4, 12).slice(0, -1)}`];
    for (let i = 0, n = int(r, 3, 9); i < n; i++) lines.push(`    at ${project.ident(r)} (${project.path(r)}:${int(r, 1, 500)}:${int(r, 1, 80)})`);
    return lines.join('\n');
  };
  const jsonBlob = (chars) => {
    const obj = {};
    let size = 0;
    while (size < chars) {
      const k = project.ident(r);
      const v = r() < 0.3 ? int(r, 0, 100000) : r() < 0.5 ? sentence(2, 6) : r() < 0.7 ? uuidFrom(r) : project.path(r);
      obj[k] = v;
      size += k.length + String(v).length + 6;
    }
    return JSON.stringify(obj, null, 2);
  };
  return { word, sentence, prose, code, testLog, buildLog, gitLog, lsLog, serverLog, stack, jsonBlob, tech, verb };
}

// ---------------------------------------------------------------------------------------------------
// Transcript lines.

/**
 * Write one session's transcript to `file`. Options:
 *   seed, sessionId, cwd, startMs, projectSeed (shared vocabulary),
 *   chunks: stop after about this many L2 chunks (user + assistant text + tool calls and their parts),
 *   or turns: exactly this many filler turns,
 *   plants: [{ afterTurn, entries: [{ role: 'user'|'assistant', uuid, text } | { role: 'tool', useUuid, resultUuid, name, input, output, isError }] }]
 * Returns { bytes, lines, chunks } (chunks estimated as the chunker would cut them).
 */
export async function writeSession(file, options) {
  const out = createWriteStream(file);
  let bytes = 0;
  let lines = 0;
  const stats = { chunks: 0 };
  for (const line of sessionLines(options, stats)) {
    const s = `${line}\n`;
    bytes += Buffer.byteLength(s);
    lines += 1;
    if (!out.write(s)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  return { bytes, lines, chunks: stats.chunks };
}

const projects = new Map();
function projectOf(seed) {
  let p = projects.get(seed);
  if (p === undefined) {
    p = buildProject(seed);
    projects.set(seed, p);
  }
  return p;
}

export function* sessionLines({ seed, sessionId, cwd, startMs = Date.UTC(2026, 9, 1, 9, 0, 0), projectSeed = 1, chunks, turns, plants = [] }, stats = {}) {
  const r = rng(seed);
  const project = projectOf(projectSeed);
  const T = makeText(project, r);
  let parent = null;
  let clock = startMs;
  let context = 16_000;
  let chunkCount = 0;
  const base = () => ({ parentUuid: parent, isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.201', gitBranch: 'main' });
  const stamp = () => {
    clock += 400 + Math.floor(r() * 25_000);
    return new Date(clock).toISOString();
  };
  const emit = (line) => {
    parent = line.uuid;
    return JSON.stringify(line);
  };
  const partsOf = (text) => Math.max(1, Math.ceil(text.length / 5_400));
  const user = (content, extra, uuid = uuidFrom(r)) =>
    emit({ ...base(), type: 'user', message: { role: 'user', content }, uuid, timestamp: stamp(), ...extra });
  let messageId = '';
  let requestId = '';
  const assistant = (block, stop, uuid = uuidFrom(r)) => {
    context += 150 + Math.floor(r() * 2500);
    if (context > 150_000) context = 30_000 + Math.floor(r() * 10_000); // a compaction happened
    return emit({
      ...base(),
      message: {
        id: messageId,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [block],
        stop_reason: stop,
        stop_sequence: null,
        usage: {
          input_tokens: 2 + Math.floor(r() * 30),
          cache_creation_input_tokens: 200 + Math.floor(r() * 5000),
          cache_read_input_tokens: context,
          output_tokens: 20 + Math.floor(r() * 1200),
          service_tier: 'standard',
          cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 200 + Math.floor(r() * 5000) },
        },
      },
      requestId,
      type: 'assistant',
      uuid,
      timestamp: stamp(),
    });
  };
  const newMessage = () => {
    messageId = `msg_01${hex(r, 22)}`;
    requestId = `req_011C${hex(r, 20)}`;
  };
  function* toolCall(name, input, output, { isError = false, structured, useUuid, resultUuid } = {}) {
    const id = `toolu_01${hex(r, 22)}`;
    yield assistant({ type: 'tool_use', id, name, input }, 'tool_use', useUuid);
    yield user(
      [{ tool_use_id: id, type: 'tool_result', content: output, ...(isError ? { is_error: true } : {}) }],
      {
        toolUseResult: structured ?? (isError ? `Error: ${output.slice(0, 200)}` : { stdout: output, stderr: '', interrupted: false, isImage: false }),
      },
      resultUuid,
    );
    chunkCount += partsOf(output);
  }
  function* planted(entries) {
    for (const e of entries) {
      newMessage();
      if (e.role === 'user') {
        yield user(e.text, { promptId: uuidFrom(r) }, e.uuid);
        chunkCount += 1;
      } else if (e.role === 'assistant') {
        yield assistant({ type: 'text', text: e.text }, null, e.uuid);
        chunkCount += 1;
      } else {
        yield* toolCall(e.name, e.input, e.output, { isError: e.isError === true, useUuid: e.useUuid, resultUuid: e.resultUuid });
      }
    }
  }
  function* fillerTool() {
    const k = r();
    if (k < 0.28) {
      const path = project.path(r);
      const start = r() < 0.7 ? 1 : int(r, 40, 400);
      const body = T.code(sizeAround(r, 3_000, 200, 24_000), start);
      yield* toolCall('Read', { file_path: `${cwd}/${path}` }, body, {
        structured: {
          type: 'text',
          file: {
            filePath: `${cwd}/${path}`,
            content: body.replace(/^ *\d+→/gm, ''),
            numLines: body.split('\n').length,
            startLine: start,
            totalLines: start + body.split('\n').length + int(r, 0, 200),
          },
        },
      });
    } else if (k < 0.52) {
      const cmd = r() < 0.7 ? pick(r, COMMANDS) : `${pick(r, ['rg', 'grep -rn'])} ${project.ident(r)} ${pick(r, DIRS)}/`;
      const m = r();
      const outText =
        m < 0.35
          ? T.testLog(sizeAround(r, 2_500, 200, 30_000))
          : m < 0.55
            ? T.buildLog(sizeAround(r, 1_200, 100, 12_000))
            : m < 0.67
              ? T.gitLog(sizeAround(r, 900, 100, 5_000))
              : m < 0.77
                ? T.lsLog(sizeAround(r, 800, 100, 4_000))
                : m < 0.9
                  ? T.serverLog(sizeAround(r, 2_000, 200, 20_000), clock)
                  : `${T.stack()}\n\n${T.sentence()}`;
      const failing = m >= 0.9 || (m < 0.35 && r() < 0.15);
      yield* toolCall('Bash', { command: cmd, description: T.sentence(3, 8).slice(0, -1) }, failing ? `Exit code 1\n${outText}` : outText, {
        isError: failing,
      });
    } else if (k < 0.63) {
      const pattern = project.ident(r);
      const lines = [];
      for (let i = 0, n = int(r, 1, 25); i < n; i++)
        lines.push(
          `${project.path(r)}:${int(r, 1, 600)}:  ${T.code(60)
            .replace(/^ *\d+→/, '')
            .trim()}`,
        );
      yield* toolCall('Grep', { pattern, path: pick(r, DIRS), output_mode: 'content', '-n': true }, lines.join('\n'), {
        structured: { mode: 'content', numFiles: lines.length, filenames: [], content: lines.join('\n'), numLines: lines.length },
      });
    } else if (k < 0.68) {
      const list = [];
      for (let i = 0, n = int(r, 0, 40); i < n; i++) list.push(`${cwd}/${project.path(r)}`);
      yield* toolCall('Glob', { pattern: `${pick(r, DIRS)}/**/*.${pick(r, EXTENSIONS)}` }, list.length === 0 ? 'No files found' : list.join('\n'), {
        structured: { filenames: list, durationMs: int(r, 2, 90), numFiles: list.length, truncated: false },
      });
    } else if (k < 0.84) {
      const path = `${cwd}/${project.path(r)}`;
      const oldString = T.code(sizeAround(r, 250, 40, 2_000)).replace(/^ *\d+→/gm, '');
      const newString = T.code(sizeAround(r, 300, 40, 2_500)).replace(/^ *\d+→/gm, '');
      if (r() < 0.08) {
        yield* toolCall(
          'Edit',
          { file_path: path, old_string: oldString, new_string: newString },
          '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>',
          { isError: true },
        );
      } else {
        const start = int(r, 1, 300);
        yield* toolCall(
          'Edit',
          { file_path: path, old_string: oldString, new_string: newString },
          `The file ${path} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${T.code(sizeAround(r, 700, 100, 3_000), start)}`,
          {
            structured: { filePath: path, oldString, newString, originalFile: null, structuredPatch: [], userModified: false, replaceAll: false },
          },
        );
      }
    } else if (k < 0.9) {
      const path = `${cwd}/${project.path(r)}`;
      const content = T.code(sizeAround(r, 1_500, 100, 9_000)).replace(/^ *\d+→/gm, '');
      yield* toolCall('Write', { file_path: path, content }, `File created successfully at: ${path}`, {
        structured: { type: 'create', filePath: path, content, structuredPatch: [] },
      });
    } else {
      const todos = [];
      for (let i = 0, n = int(r, 2, 7); i < n; i++) {
        const content = `${cap(T.verb(r))} ${T.sentence(2, 7).slice(0, -1).toLowerCase()}`;
        todos.push({ content, status: pick(r, ['pending', 'in_progress', 'completed']), activeForm: content });
      }
      yield* toolCall(
        'TodoWrite',
        { todos },
        'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable',
        {
          structured: { oldTodos: [], newTodos: todos },
        },
      );
    }
  }
  function* fillerTurn(turn) {
    newMessage();
    let prompt = T.prose(sizeAround(r, 220, 20, 2_000));
    if (r() < 0.12) prompt += `\n\n\`\`\`\n${r() < 0.5 ? T.stack() : T.serverLog(sizeAround(r, 800, 100, 4_000), clock)}\n\`\`\``;
    yield user(prompt, { promptId: uuidFrom(r), permissionMode: 'default' });
    chunkCount += 1;
    if (turn % 9 === 1) {
      yield emit({
        ...base(),
        type: 'attachment',
        attachment: { type: 'hook_additional_context', content: [T.sentence()], hookEvent: 'UserPromptSubmit' },
        uuid: uuidFrom(r),
        timestamp: stamp(),
      });
    }
    const steps = int(r, 0, 6);
    for (let s = 0; s < steps; s++) {
      newMessage();
      if (r() < 0.35) yield assistant({ type: 'thinking', thinking: T.prose(sizeAround(r, 400, 40, 3_000)), signature: hex(r, 64) }, null);
      if (r() < 0.55) {
        yield assistant({ type: 'text', text: T.prose(sizeAround(r, 250, 30, 1_500)) }, null);
        chunkCount += 1;
      }
      const calls = r() < 0.8 ? 1 : int(r, 2, 3);
      for (let c = 0; c < calls; c++) yield* fillerTool();
    }
    newMessage();
    yield assistant({ type: 'text', text: T.prose(sizeAround(r, 500, 40, 3_500)) }, 'end_turn');
    chunkCount += 1;
    if (r() < 0.05) {
      yield emit({
        ...base(),
        type: 'system',
        subtype: 'informational',
        content: T.sentence(),
        level: 'info',
        uuid: uuidFrom(r),
        timestamp: stamp(),
        isMeta: false,
      });
    }
  }

  const byTurn = new Map();
  for (const p of plants) byTurn.set(p.afterTurn, [...(byTurn.get(p.afterTurn) ?? []), ...p.entries]);
  const maxPlant = Math.max(-1, ...byTurn.keys());
  let turn = 0;
  if (byTurn.has(0)) yield* planted(byTurn.get(0));
  for (;;) {
    if (turns !== undefined ? turn >= turns && turn > maxPlant : chunks !== undefined ? chunkCount >= chunks && turn > maxPlant : turn > maxPlant) break;
    turn += 1;
    yield* fillerTurn(turn);
    if (byTurn.has(turn)) yield* planted(byTurn.get(turn));
  }
  stats.chunks = chunkCount;
}

/** Write a transcript of about `targetBytes` (one session) and return its size. */
export async function writeSizedTranscript(file, { seed, sessionId, cwd, targetBytes, projectSeed = 1 }) {
  const out = createWriteStream(file);
  let bytes = 0;
  let lines = 0;
  // Ask for far more chunks than needed; stop at the byte budget on a turn boundary-ish (a tool pair
  // may be cut in two, which the chunker tolerates: a tool_use without result stays pending).
  for (const line of sessionLines({ seed, sessionId, cwd, projectSeed, chunks: 10_000_000 })) {
    const s = `${line}\n`;
    bytes += Buffer.byteLength(s);
    lines += 1;
    if (!out.write(s)) await new Promise((resolve) => out.once('drain', resolve));
    if (bytes >= targetBytes) break;
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  return { bytes, lines };
}
