// Secret redaction applied before anything of the user's is written. Precision matters as much as
// recall: hashes, uuids and ordinary code must survive, so every pattern needs either a known
// provider prefix or an assignment to a secret-looking name. Each hit becomes `[REDACTED:<kind>]`.

interface Rule {
  kind: string;
  pattern: RegExp;
  /** Index of the capture group holding the secret; the rest of the match is kept. */
  group?: number;
}

const RULES: Rule[] = [
  { kind: 'private-key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g },
  { kind: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai-key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/g },
  { kind: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})/g },
  { kind: 'gitlab-token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'slack-token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'aws-access-key', pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'stripe-key', pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}/g },
  { kind: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'url-password', pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]{3,})(@)/gi, group: 2 },
  {
    kind: 'assignment',
    // KEY=value, KEY: value, "key": "value" where the name says secret. Values that are clearly not
    // literals (variables, calls, placeholders) are left alone by the check below.
    pattern:
      /((?:^|[\s{,;(])["']?[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth)["']?\s*[:=]\s*["']?)([^\s"',;)}]{6,})/gim,
    group: 2,
  },
];

const NOT_A_LITERAL = /^(?:\$|process\.env|os\.environ|env\.|getenv|\{\{|<|\[REDACTED|null$|undefined$|true$|false$|none$|os\.getenv|\*+$|x+$|\.\.\.)/i;

export interface Redaction {
  text: string;
  count: number;
  kinds: string[];
}

export function redact(input: string): Redaction {
  let text = stripPrivate(input);
  let count = 0;
  const kinds = new Set<string>();
  for (const rule of RULES) {
    text = text.replace(rule.pattern, (...args: unknown[]) => {
      const match = args[0] as string;
      if (rule.group === undefined) {
        count += 1;
        kinds.add(rule.kind);
        return `[REDACTED:${rule.kind}]`;
      }
      const groups = args.slice(1, -2) as Array<string | undefined>;
      const secret = groups[rule.group - 1] ?? '';
      if (secret === '' || NOT_A_LITERAL.test(secret) || secret.startsWith('[REDACTED')) return match;
      count += 1;
      kinds.add(rule.kind);
      const before = groups.slice(0, rule.group - 1).join('');
      const after = groups.slice(rule.group).join('');
      return `${before}[REDACTED:${rule.kind === 'assignment' ? 'secret' : rule.kind}]${after}`;
    });
  }
  return { text, count, kinds: [...kinds] };
}

/** `<private>…</private>` regions never leave the session. An unclosed tag hides the rest. */
export function stripPrivate(text: string): string {
  if (!text.includes('<private>')) return text;
  return text.replace(/<private>[\s\S]*?(?:<\/private>|$)/g, '[PRIVATE]');
}

export function redactText(input: string): string {
  return redact(input).text;
}
