// Recall in languages written without spaces between words (Chinese, Japanese) or with particles
// attached to them (Korean): a word inside a sentence must be findable, through the compiled CLI
// and its index, as an English word is.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, runCli } from './helpers/proc.ts';
import { scriptedTranscript } from './helpers/scripted-transcript.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-recall-lang-');

describe('recall of a word inside a CJK sentence', () => {
  it('finds Chinese, Japanese and Korean words in their sentences, and the sentence whole', () => {
    const home = tempDir();
    const project = join(home, 'project');
    mkdirSync(project);
    const env = baseEnv(home, { CTXL_HOME: join(home, 'data') });
    const t = scriptedTranscript('cjk00000-0000-4000-8000-000000000001', project);
    const zh = t.user('我们决定使用连接池来管理数据库连接，超时设置为三十秒。');
    const ja = t.user('ログインのバグを直した。');
    const ko = t.user('어제 버그를 고쳤다');
    const en = t.assistant('The connection pool now times out after 30s.');
    t.write(join(home, 't.jsonl'));
    expect(runCli(['ingest', join(home, 't.jsonl'), '--cwd', project, '--json'], env, project).status).toBe(0);
    const first = (query: string) => {
      const r = runCli(['recall', '--json', '--', query], env, project);
      expect(r.status).toBe(0);
      return (JSON.parse(r.stdout) as { results: Array<{ sourceUuids: string[] }> }).results[0]?.sourceUuids;
    };
    for (const word of ['数据库', '连接池', '超时', '我们决定使用连接池来管理数据库连接']) expect(first(word), word).toEqual([zh]);
    for (const word of ['バグ', 'ログイン']) expect(first(word), word).toEqual([ja]);
    expect(first('버그')).toEqual([ko]);
    expect(first('connection pool')).toEqual([en]);
  });
});
