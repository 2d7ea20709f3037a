// A local stand-in for the Anthropic Messages API, good enough for the real Claude Code client
// (reference §7.3). It listens on 127.0.0.1 (a free port), records every request, and answers
// POST /v1/messages with a streamed (SSE) reply taken from a scripted queue of turns. Compaction
// requests (recognised by their instructions) get their own scripted summary and never consume a turn.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** What the mock reports as `usage`; the client uses it for context size and auto-compaction. */
export interface Usage {
  input_tokens: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

export interface TextTurn {
  kind: 'text';
  text: string;
  usage?: Usage;
}

export interface ToolUseTurn {
  kind: 'tool_use';
  name: string;
  input: Record<string, unknown>;
  /** Defaults to `toolu_mock_<n>`. */
  id?: string;
  /** Optional text block streamed before the tool_use block. */
  text?: string;
  usage?: Usage;
}

export type Turn = TextTurn | ToolUseTurn;

export type RequestKind = 'messages' | 'compact' | 'count_tokens' | 'other';

export interface RecordedRequest {
  /** 0-based arrival order over every request the mock saw. */
  seq: number;
  method: string;
  url: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The decoded body text ('' when there was none). */
  raw: string;
  /** The parsed JSON body, or undefined when the body was not JSON. */
  body: unknown;
  kind: RequestKind;
  /** What the mock answered with: the turn, a compaction summary, or a fixed reply. */
  answer: Turn | { kind: 'compact'; text: string } | { kind: 'fixed'; status: number };
}

/** What a responder or a usage function sees of a main-thread request. */
export interface TurnRequest {
  seq: number;
  raw: string;
  body: unknown;
}

export const COMPACT_MARKER = 'followed by a <summary> block';
export const DEFAULT_SMALL_USAGE: Usage = { input_tokens: 1200, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

export const text = (t: string, usage?: Usage): TextTurn => (usage === undefined ? { kind: 'text', text: t } : { kind: 'text', text: t, usage });
export const toolUse = (name: string, input: Record<string, unknown>, extra: Omit<ToolUseTurn, 'kind' | 'name' | 'input'> = {}): ToolUseTurn => ({
  kind: 'tool_use',
  name,
  input,
  ...extra,
});

export class MockAnthropic {
  readonly requests: RecordedRequest[] = [];
  /** Unexpected problems inside the mock (bad encodings, JSON it could not parse). Tests assert it stays empty. */
  readonly problems: string[] = [];
  /** Reply for compaction requests; must contain `<summary>…</summary>`. */
  compactText = '<analysis>mock analysis</analysis>\n<summary>MOCK-SUMMARY-TEXT: the user asked for markers; nothing else is pending.</summary>';
  /** Usage reported on compaction replies: small, so the client does not think it is thrashing. */
  compactUsage: Usage = { input_tokens: 3000, output_tokens: 120, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  /** Turn used when the queue is empty. */
  fallback: TextTurn = { kind: 'text', text: 'OK (mock fallback).' };
  /**
   * Usage for main-thread replies whose turn sets none. `true`: computed from the request, so the
   * client's context size (and its auto-compaction) follows the real conversation: input_tokens is
   * the decoded body's length / 4, output_tokens the reply's length / 4. A function computes it
   * itself. `false` (default): DEFAULT_SMALL_USAGE. Compaction replies always use compactUsage.
   */
  usageFromBody: boolean | ((request: TurnRequest, turn: Turn) => Usage) = false;
  /**
   * Chooses the turn of each main-thread request before the queue is consulted (undefined: take the
   * queue, then the fallback). Lets a scenario react to what happened, e.g. stop filling the context
   * once a compaction has run.
   */
  responder: ((request: TurnRequest) => Turn | undefined) | undefined = undefined;

  private queue: Turn[] = [];
  private counter = 0;
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<MockAnthropic> {
    let mock: MockAnthropic | undefined;
    const server = createServer((req, res) => {
      mock?.handle(req, res).catch((error: unknown) => {
        mock?.problems.push(`handler failed: ${String(error)}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'mock failure' } }));
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    mock = new MockAnthropic(server, (server.address() as AddressInfo).port);
    return mock;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Append turns to the queue; each main-thread /v1/messages request takes the next one. */
  script(...turns: Turn[]): this {
    this.queue.push(...turns);
    return this;
  }

  /** Turns not used yet. */
  get pending(): number {
    return this.queue.length;
  }

  /** Forget the queue and everything recorded (between tests sharing one server). */
  reset(): void {
    this.queue = [];
    this.requests.length = 0;
    this.problems.length = 0;
  }

  /** The model requests (main turns and compactions), in arrival order. */
  messages(): RecordedRequest[] {
    return this.requests.filter((r) => r.kind === 'messages' || r.kind === 'compact');
  }

  compactions(): RecordedRequest[] {
    return this.requests.filter((r) => r.kind === 'compact');
  }

  /** Model requests whose text (see requestTexts) contains `needle`. */
  containing(needle: string): RecordedRequest[] {
    return this.messages().filter((r) => requestIncludes(r, needle));
  }

  /**
   * The first model request that arrived after `after` (a recorded request, or the first one that
   * matches the predicate), optionally also matching `where`. Undefined when there is none.
   */
  nextAfter(
    after: RecordedRequest | ((r: RecordedRequest) => boolean) | undefined,
    where: (r: RecordedRequest) => boolean = () => true,
  ): RecordedRequest | undefined {
    const anchor = typeof after === 'function' ? this.requests.find(after) : after;
    if (anchor === undefined) return undefined;
    return this.messages().find((r) => r.seq > anchor.seq && where(r));
  }

  /** The first main-thread (non-compaction) request after the given request or predicate. */
  nextTurnAfter(after: RecordedRequest | ((r: RecordedRequest) => boolean) | undefined): RecordedRequest | undefined {
    return this.nextAfter(after, (r) => r.kind === 'messages');
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    const method = req.method ?? 'GET';
    const raw = await readBody(req, this.problems);
    let body: unknown;
    if (raw !== '') {
      try {
        body = JSON.parse(raw);
      } catch {
        if (method === 'POST') this.problems.push(`${method} ${url}: body is not JSON (${raw.slice(0, 60)})`);
      }
    }
    const seq = this.requests.length;
    const record = (kind: RequestKind, answer: RecordedRequest['answer']) =>
      this.requests.push({ seq, method, url, path, headers: req.headers, raw, body, kind, answer });

    if (method === 'POST' && path === '/v1/messages') {
      const model = typeof (body as { model?: unknown })?.model === 'string' ? (body as { model: string }).model : 'claude-mock';
      if (raw.includes(COMPACT_MARKER)) {
        const answer = { kind: 'compact' as const, text: this.compactText };
        record('compact', answer);
        this.stream(res, model, { kind: 'text', text: this.compactText }, this.compactUsage);
        return;
      }
      const request = { seq, raw, body };
      const turn = this.responder?.(request) ?? this.queue.shift() ?? this.fallback;
      record('messages', turn);
      this.stream(res, model, turn, turn.usage ?? this.bodyUsage(request, turn));
      return;
    }
    if (method === 'POST' && path === '/v1/messages/count_tokens') {
      record('count_tokens', { kind: 'fixed', status: 200 });
      sendJson(res, 200, { input_tokens: Math.max(1, Math.round(raw.length / 4)) });
      return;
    }
    record('other', { kind: 'fixed', status: 200 });
    if (method === 'HEAD') {
      res.writeHead(200);
      res.end();
      return;
    }
    sendJson(res, 200, {});
  }

  private bodyUsage(request: TurnRequest, turn: Turn): Usage | undefined {
    if (this.usageFromBody === false) return undefined;
    if (typeof this.usageFromBody === 'function') return this.usageFromBody(request, turn);
    const out = (turn.text ?? '').length + (turn.kind === 'tool_use' ? JSON.stringify(turn.input).length : 0);
    return {
      input_tokens: Math.ceil(request.raw.length / 4),
      output_tokens: Math.max(1, Math.ceil(out / 4)),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    };
  }

  private stream(res: ServerResponse, model: string, turn: Turn, turnUsage: Usage | undefined): void {
    const n = ++this.counter;
    const usage = { ...DEFAULT_SMALL_USAGE, ...turnUsage };
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'request-id': `req_mock_${n}`,
    });
    const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    send('message_start', {
      type: 'message_start',
      message: {
        id: `msg_mock_${n}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    });
    let index = 0;
    const leadText = turn.text;
    if (leadText !== undefined && leadText !== '') {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      send('ping', { type: 'ping' });
      for (const piece of halves(leadText)) send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
      send('content_block_stop', { type: 'content_block_stop', index });
      index++;
    }
    if (turn.kind === 'tool_use') {
      const id = turn.id ?? `toolu_mock_${n}`;
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: turn.name, input: {} } });
      for (const piece of halves(JSON.stringify(turn.input)))
        send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
      send('content_block_stop', { type: 'content_block_stop', index });
    }
    send('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: turn.kind === 'tool_use' ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage,
    });
    send('message_stop', { type: 'message_stop' });
    res.end();
  }
}

type Obj = Record<string, unknown>;

function blockTexts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  const out: string[] = [];
  for (const block of content as Obj[]) {
    if (block === null || typeof block !== 'object') continue;
    if (typeof block.text === 'string') out.push(block.text);
    if (block.type === 'tool_result') out.push(...blockTexts(block.content));
    if (block.type === 'tool_use') out.push(JSON.stringify(block.input));
  }
  return out;
}

/**
 * Every piece of text the model would read in a /v1/messages request (system blocks, then each
 * message's text, tool_use inputs and tool_result contents), decoded from JSON. Search this rather
 * than the raw body, whose JSON escaping differs from the hook's output.
 */
export function requestTexts(r: RecordedRequest): string[] {
  const body = (r.body ?? {}) as { system?: unknown; messages?: Array<{ content?: unknown }> };
  const out = blockTexts(body.system);
  for (const m of body.messages ?? []) out.push(...blockTexts(m.content));
  return out;
}

export function requestIncludes(r: RecordedRequest | undefined, needle: string): boolean {
  return r !== undefined && requestTexts(r).some((t) => t.includes(needle));
}

/** Split a string in two (or keep it whole when short) so deltas are really streamed in pieces. */
function halves(s: string): string[] {
  if (s.length < 2) return [s];
  const mid = Math.floor(s.length / 2);
  return [s.slice(0, mid), s.slice(mid)];
}

async function readBody(req: IncomingMessage, problems: string[]): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const buf = Buffer.concat(chunks);
  const encoding = String(req.headers['content-encoding'] ?? 'identity').toLowerCase();
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(buf).toString('utf8');
    if (encoding === 'br') return brotliDecompressSync(buf).toString('utf8');
    if (encoding === 'deflate') return inflateSync(buf).toString('utf8');
    if (encoding !== 'identity' && encoding !== '') problems.push(`${req.method} ${req.url}: unsupported content-encoding ${encoding}`);
  } catch (error) {
    problems.push(`${req.method} ${req.url}: could not decode ${encoding} body: ${String(error)}`);
  }
  return buf.toString('utf8');
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}
