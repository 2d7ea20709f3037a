// The secrets redaction looks for (redact.ts applies them). Precision matters as much as recall:
// hashes, uuids and ordinary code must survive. So a value is a secret when it has a known provider
// shape, or when a secret-like name is assigned a literal in a context that says "value": an
// env-style line (also behind Read's or Grep's line prefix), an environment variable in capitals,
// quotes, a query string, a URL's password, an Authorization header, a cookie header's random-looking
// value, a command line's password option (mysql -p, curl -u, --password …; also a command an .env
// line assigns), a value piped to a command that reads a password from stdin, a config file's own key (.npmrc, .netrc, .pgpass, docker's auth, XML elements, PHP's
// define), a name/value pair (Kubernetes' env, ECS), a setter called with a random-looking literal, a value said in prose, or a bare word that
// looks random (not a call, a member access or a type); a bare AWS secret key, near `aws` or its key id. Every quantifier is bounded, so no input
// makes a rule quadratic; rules that cannot match a text are skipped by a literal (`hints`) or one
// shared pattern (`gate`).

export interface Rule {
  kind: string;
  pattern: RegExp;
  /** Index of the capture group holding the secret. Group 1 is always everything before it. */
  group?: number;
  /** Extra test on the secret (for assignments: does it look like a literal?). */
  accept?: (secret: string) => boolean;
  /** Extra test on the text around the secret (the text the rule runs on, where the secret starts and ends), after `accept`. */
  around?: (text: string, start: number, end: number) => boolean;
  /** The rule needs a secret-like name (NAME) in the text. */
  named?: boolean;
  /** Literals of which every match holds one: a text with none skips the rule (a scan costs less than the regex). */
  hints?: readonly string[];
  /** As `hints`, as one pattern: for a rule whose hints would be many (each `includes` scans the text). */
  gate?: RegExp;
}

const gateWords = new Map<RegExp, readonly (readonly string[])[]>();
/**
 * Words a gate's every match holds, in groups: a text must hold a word of each group before the gate
 * runs (looked up in the text in lower case for a case-insensitive gate, as it is for another,
 * whose words are then written in its case). A short-lived hook pays more to compile a gate
 * (0.05–0.7 ms each, again for each string width) than to run it, and most texts hold none of
 * these words, or not all groups: "3 passed" holds pass, but not after a `-` as a flag's name does.
 */
export const GATE_WORDS: ReadonlyMap<RegExp, readonly (readonly string[])[]> = gateWords;
const gate = (pattern: RegExp, ...groups: readonly (readonly string[])[]): RegExp => {
  gateWords.set(pattern, groups);
  return pattern;
};

// A secret-like name, ending where the assignment starts: password, DB_PASSWORD, api_key, apiKey,
// SECRET_KEY, secret_key_base, client-secret, auth_token, x-api-key; not "tokenizer" or "secretary".
// `pass` and `pwd` are no part of it: code is full of `pass` (`const pass = …`, `pass: true`). They
// count in capitals (ENV_NAME: DB_PASS, MYSQL_PWD) and as a flag's name (PASSWORD_FLAG: --pass).
const NAME =
  '[A-Za-z0-9_.-]{0,40}?(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?key|credentials?)(?:[_-][A-Za-z0-9]{1,20}){0,3}';

// The words a NAME must contain: a text without any needs none of the NAME rules, each of which
// tries up to 40 characters at every position.
// (Also "api key" and "access key" as prose writes them, for the rules of secrets named in prose.)
export const NAME_WORD = /password|passwd|passphrase|secret|token|api[ _-]?key|apikey|access[ _-]?key|private[_-]?key|auth[_-]?key|credential/i;

// An assignment's operator: `:` or `=` (YAML, JSON, code, .env), also Go's and Makefile's `:=` and `?=`.
const ASSIGN = '(?::=|\\?=|[:=])';

// What a tool puts before a file's line: Read's line number ("    12→", or cat -n's "    12\t"),
// Grep's "path:12:" or "path:" (and "path-12-" for a context line), so an .env file read or
// searched through a tool is matched as its lines are.
const LINE_PREFIX = '(?:[ \\t]{0,12}\\d{1,9}(?:→|\\t)|[^\\s:]{1,300}:(?:\\d{1,9}:)?|[^\\s:]{1,300}-\\d{1,9}-)?';

const TYPE_WORDS = new Set([
  'string',
  'number',
  'boolean',
  'any',
  'unknown',
  'never',
  'object',
  'str',
  'int',
  'bytes',
  'bool',
  'none',
  'null',
  'undefined',
  'true',
  'false',
  'optional',
  'required',
  'secret',
  'password',
  'token',
]);
const PLACEHOLDER = /^(?:\$|%|\{\{|<|\[REDACTED|\*{3,}|x{3,}|\.{3}|changeme$|your[_-]|example|dummy|test$|env\(|process\.env|os\.environ|getenv)/i;

/** An unquoted value counts only if it looks random: a digit, or long with mixed character classes. */
function looksRandom(value: string): boolean {
  if (value.length < 8 || TYPE_WORDS.has(value.toLowerCase()) || PLACEHOLDER.test(value) || NOT_A_SECRET.test(value)) return false;
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return false; // member access: config.apiKey
  if (/^[A-Za-z]+$/.test(value)) return value.length >= 24 && /[a-z]/.test(value) && /[A-Z]/.test(value);
  return /\d/.test(value) || (value.length >= 16 && /[A-Za-z]/.test(value) && /[^A-Za-z]/.test(value));
}

/**
 * What a value is not, besides a placeholder at its start: masked or cut short (`gho_****`,
 * `sk_test_...`), an address or a path (`TOKEN_FILE=/var/run/…`, `token_endpoint: https://…`), a
 * version (`"@types/jsonwebtoken": "^9.0.2"`).
 */
const NOT_A_SECRET = /\*{3,}|(?:\.{3}|…)$|^(?:https?:\/\/|\.{0,2}\/|~\/)|^[\^~<>=]{0,2}\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?$/;
const isLiteral = (value: string) => value.length >= 4 && !PLACEHOLDER.test(value) && !NOT_A_SECRET.test(value);

/** An environment variable's name in capitals that holds a secret: POSTGRES_PASSWORD, PGPASSWORD, GITHUB_TOKEN. */
const ENV_NAME =
  '[A-Z][A-Z0-9_]{0,40}(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY|AUTH_KEY|CREDENTIALS?)(?:_[A-Z0-9]{1,20}){0,3}';
const ENV_GATE = gate(/[A-Z0-9_](?:PASS|PWD|SECRET|TOKEN|KEY|CREDENTIAL)|^(?:PASS|PWD|SECRET|TOKEN)/m, ['PASS', 'PWD', 'SECRET', 'TOKEN', 'KEY', 'CREDENTIAL']);

/**
 * Where a command starts: after a space, or at a line's start, a shell operator or an opening quote,
 * where an absolute path to it may come first (/usr/bin/mysql; after a space, /var/lib/mysql is a folder).
 */
const COMMAND_START = '(?:(?:^|[\\r\\n|;&(`\'"])[ \\t]{0,5}(?:/[\\w.+-]{1,60}){0,8}/?|[ \\t])';
/**
 * A command assigned at a line's start (an .env file's `HEALTHCHECK=curl …`, `DB_CLI=mysql …`, also
 * behind Read's or Grep's line prefix): its `=` starts it. Not mid-line: `docker run -e
 * DB_HOST=mysql -p3306:3306` names a host. The command rules run again with this start, and only
 * on a text where a `=` comes before a command (ASSIGNED_COMMAND_GATE): in COMMAND_START, trying a
 * line prefix at every line doubled those rules' time on code.
 */
const ASSIGNED_COMMAND_START = `(?:^|[\\r\\n])${LINE_PREFIX}[ \\t]{0,20}(?:export[ \\t]{1,5})?[A-Za-z_][\\w.-]{0,60}=[ \\t]{0,5}(?:/[\\w.+-]{1,60}){0,8}/?`;
const ASSIGNED_COMMAND_GATE = gate(
  /=[ \t]{0,5}(?:\/[\w.+-]{1,60}){0,8}\/?(?:mysql|mariadb|sshpass|docker|podman|az|redis-cli|zip|ssh-keygen|https?|curl)[\w.-]{0,10}[ \t]/,
  ['='],
  ['mysql', 'mariadb', 'sshpass', 'docker', 'podman', 'az', 'redis-cli', 'zip', 'ssh-keygen', 'http', 'curl'],
);
/**
 * mysql (or mysqldump…) as a command, up to its `-p`, within one command of a line. The options
 * before it are lazy and tried last (`??`): greedy, they reached past a first `-p` to a second
 * command's on the line and left the first password.
 */
const mysqlP = (start: string) =>
  `${start}(?:mysql|mariadb)(?:dump|admin|import|sh|check|-dump|-admin|-import)?(?:\\.exe)?(?:[ \\t][^\\n|;&]{0,300}?)??[ \\t]-p`;
/**
 * A flag whose name ends in a secret's, with its `=` or space: `--password `, `--db-token=`, `-pass `.
 * A password flag takes any literal (people pick words); a token or key flag a random-looking one
 * (help text says `--token string`, `--api-key value`; `--max-token 4096`, `--reset-token myhost`).
 */
const flagOf = (names: string) => `(?:^|[ \\t])--?(?!no-|skip-|without-|ask-|prompt-)(?:[A-Za-z0-9]{1,20}[_-]){0,3}(?:${names})(?:=|[ \\t]{1,5})`;
const PASSWORD_FLAG = flagOf('password|passwd|passphrase|pass|pwd');
// `--secret` often names a secret (gcloud `--secret=db-password`): a random-looking value only.
const TOKEN_FLAG = flagOf('secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|credentials?');
const FLAG = flagOf('password|passwd|passphrase|pass|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|credentials?');
/** What a text with such a flag holds: a secret's name right after a `-`, or in a longer name a `_` or `-` (`--db-pass`, `--api_token`). */
const FLAG_NAMES = ['pass', 'pwd', 'secret', 'token', 'api', 'access', 'auth', 'credential'];
const FLAG_GATE = gate(
  /-(?:[A-Za-z0-9]{1,20}[_-]){0,3}(?:pass|pwd|secret|token|api|apikey|access|auth|credential)/i,
  FLAG_NAMES.flatMap((name) => [`-${name}`, `_${name}`]),
);
/** Words help text puts after a flag for its value. */
const HELP_WORDS = new Set(['value', 'string', 'stdin', 'text', 'secret', 'password', 'token', 'key', 'file', 'path']);
/** A password on a command line: a literal, not a variable, a placeholder, a NAME in capitals or a word of help text. */
const commandValue = (v: string) =>
  isLiteral(v) && !/^[A-Z_]{2,}$/.test(v) && !/[$<]/.test(v) && !TYPE_WORDS.has(v.toLowerCase()) && !HELP_WORDS.has(v.toLowerCase());
/**
 * A field whose name says it holds a secret (`password`, `client_secret`, `githubToken`, `api_key`),
 * as a tool's input has it: the rules see a value alone, and "S3cr3tPa55" alone looks like a word.
 */
export const SECRET_FIELD = /(?:password|passwd|passphrase|pwd|secret|token|credentials?|api[_-]?key|(?:secret|private|access|auth)[_-]?key)$/i;
/** Such a field's value that is a secret: as on a command line (not a placeholder, a variable or a word of help text). */
export const secretFieldValue = commandValue;
/** A flag's unquoted value that may be a secret: as on a command line, and not a key=value spec (`--secret id=npmrc,…`). */
const flagValue = (v: string) => commandValue(v) && !/^[A-Za-z_]{1,20}=/.test(v);
/** An environment variable's value: as on a command line, and not a number (`MAX_TOKEN=4096`). */
const envValue = (v: string) => commandValue(v) && !/^\d+$/.test(v);

/** An XML element's open tag whose name ends in one of `names` (attributes allowed), and the spaces after it; group 2 is the name. */
const xmlOpen = (names: string) => `<((?:[A-Za-z][\\w.:-]{0,40}?)?(?:${names}))(?:[ \\t][^<>]{0,300})?>[ \\t]{0,5}`;
/**
 * A line break and the indent after it, between a tag and its value (`<password>` on a line of its
 * own, as a pretty-printed settings.xml or a Write of one has it).
 */
const XML_BREAK = '(?:[ \\t]{0,5}\\r?\\n[ \\t]{0,40})?';
/** Maven's filter placeholders (@db.password@), JSX expressions ({token.symbol}). */
const XML_PLACEHOLDER = /^@[\w.]+@$|^\{[^{}]*\}$/;
/**
 * An element's value that may be a secret: a literal of one word. A value of words is prose (JSX's
 * `<ForgotPassword>\n  Forgot your password?\n</ForgotPassword>`), a placeholder or an expression is not one.
 */
const xmlValue = (v: string) => commandValue(v) && !XML_PLACEHOLDER.test(v) && !/\s/.test(v.trim());
/** `echo` or `printf '%s\n'` at a command's start (also behind Read's or Grep's line prefix, as an assignment's value or quoted), up to its value. */
const ECHO = `(?:^|[\\s;&|(\`→:='"])(?:echo|printf)(?:[ \\t]{1,5}-[neE]{1,3}){0,3}(?:[ \\t]{1,5}(?:'%s(?:\\\\n)?'|"%s(?:\\\\n)?"))?[ \\t]{1,5}`;
/** A pipe into a command that reads a password from stdin (sudo's options may take values before -S). */
const PASSWORD_READER =
  '--password-stdin(?![\\w-])|\\bsudo[ \\t]{1,5}(?:-[A-Za-z]{1,5}(?:[ \\t]{1,5}[^\\s|;&-]\\S{0,40})?[ \\t]{1,5}){0,3}-[A-Za-z]{0,4}S(?![\\w-])|\\bpasswd[ \\t][^\\n|;&]{0,60}--stdin(?![\\w-])|\\bchpasswd\\b|-passin[ \\t]{1,5}stdin';
const STDIN_READER = `[ \\t]{0,5}\\|[^\\n|;&]{0,200}(?:${PASSWORD_READER})`;

/**
 * A command that reads a password from stdin, as a heredoc feeds it: those of STDIN_READER (sudo's
 * own options only, not `sudo ls -lS`; `passwd --stdin`, not `--stdin-file-path` or `git
 * hash-object --stdin`) and `vault login -`.
 */
const HEREDOC_READER = `${PASSWORD_READER}|\\bvault[ \\t]{1,5}login[ \\t]{1,5}-(?=[ \\t\\r\\n]|$)`;
/** `name: DB_PASSWORD` (or `"key" = "…"`) and then, after a comma or on the next line, `value:` and its spaces (its group 1: the name's quote). */
const NAME_VALUE_PAIR = `(?<![A-Za-z0-9_-])["']?(?:name|key)["']?[ \\t]{0,3}[:=][ \\t]{0,3}(["']?)${NAME}\\2[ \\t]{0,3}(?:,[ \\t]{0,3}(?:\\r?\\n[ \\t]{0,40})?|\\r?\\n[ \\t]{0,40}(?:-[ \\t]{1,3})?)["']?value["']?[ \\t]{0,3}[:=][ \\t]{0,3}`;
const NAME_VALUE_GATE = gate(
  /(?:name|key)["']?[ \t]{0,3}[:=][ \t]{0,3}["']?[\w.-]{0,40}?(?:pass|secret|token|key|credential)/i,
  ['name', 'key'],
  ['pass', 'secret', 'token', 'key', 'credential'],
);
/** A literal gate (with the `<<` hint): a scan from each `<<` cost C++ stream code 10× its time. */
const HEREDOC_GATE = gate(/--password-stdin|\bsudo\b|\bpasswd\b|chpasswd|-passin|\bvault[ \t]/, ['password-stdin', 'sudo', 'passwd', '-passin', 'vault']);
/** A heredoc's body that may be a password: not a variable alone (`$DOCKER_PASS`). */
const heredocValue = (v: string) => !/^\s*["']?\$\{?[A-Za-z_]\w*\}?["']?\s*$/.test(v);

/**
 * A bare 40-character value that is an AWS secret key: upper case, lower case and a digit (a git
 * hash or a sha1 is hex, and in one case), and not a path (no `/` at either end, no `//`, fewer than
 * four `/`: a key holds 0.6 of them on average; a path that long holds more).
 */
const awsSecret = (v: string) =>
  /[A-Z]/.test(v) && /[a-z]/.test(v) && /\d/.test(v) && !/^[0-9A-Fa-f]+$/.test(v) && !/^\/|\/$|\/\//.test(v) && v.split('/').length <= 4;
/** `aws` as a word (AWS_PROFILE, aws-cli, an id's marker `[REDACTED:aws-access-key]`; not laws or paws), or an access key id. */
const AWS_WORD = /(?<![A-Za-z])(?:aws|AWS|Aws)(?![a-z])|\bA[KS]IA[A-Z0-9]{16}\b/;
/**
 * Whether a bare key is near `aws` or an access key id: up to 300 characters before it on its line
 * or the line before, or after it on its line (the id, redacted by then, leaves `aws` in its
 * marker); and not right after a secret's name (`secret_key = …`), which other rules take. Tested
 * here, not in the pattern: lookarounds cost 3 µs at each 40-character word (a git hash).
 */
function nearAws(text: string, start: number, end: number): boolean {
  // Within 300 characters first: a search for the line's ends over a whole text, at each key of a long line, was quadratic.
  let before = text.slice(Math.max(0, start - 300), start);
  const newline = before.lastIndexOf('\n');
  if (newline !== -1) before = before.slice(before.lastIndexOf('\n', newline - 1) + 1);
  if (/(?:key|secret)["']?[ \t]{0,5}(?::=|[:=])[ \t]{0,5}["']?$/i.test(before)) return false;
  const after = text.slice(end, end + 300);
  return AWS_WORD.test(before) || AWS_WORD.test(after.includes('\n') ? after.slice(0, after.indexOf('\n')) : after);
}
/** A cookie's name and value (RFC 6265: no spaces, quotes, commas, semicolons or backslashes). */
const COOKIE_NAME = '[^\\s=;"\'`\\\\,]{1,200}';
const COOKIE_VALUE = '[^\\s;"\'`\\\\,]{1,4000}';
/** A Cookie or Set-Cookie header. A gate, not hints: three spellings as hints slowed the one-pass hint scan by a third. */
const COOKIE_GATE = gate(/cookie["']?[ \t]{0,3}:/i, ['cookie']);

/** The rules of a password on a command line, for commands that start where `start` says. */
const commandRules = (start: string): Rule[] => [
  // mysql -pSECRET, -p'SECRET' (glued to -p; a bare -p prompts for it): mysql as the command, and
  // -p its option (not /usr/include/mysql … -pthread, not some-mysql -p3306:3306).
  { kind: 'password', pattern: new RegExp(`(${mysqlP(start)}(["']))([^"'\\n]{1,200})(\\2)`, 'g'), group: 3, accept: commandValue, hints: ['mysql', 'mariadb'] },
  { kind: 'password', pattern: new RegExp(`(${mysqlP(start)})([^\\s'"-][^\\s'"]{0,199})`, 'g'), group: 2, accept: commandValue, hints: ['mysql', 'mariadb'] },
  // sshpass -p SECRET, docker/podman login -p SECRET, redis-cli -a SECRET: the password as a short option's value.
  {
    kind: 'password',
    pattern: new RegExp(
      `(${start}(?:sshpass[ \\t]{1,5}-p|(?:(?:docker|podman)(?:\\.exe)?|az)[ \\t]{1,5}login[^\\n|;&]{0,300}?[ \\t]-p|redis-cli[^\\n|;&]{0,300}?[ \\t]-a)[ \\t]{1,5}(["']?))([^\\s"'-][^\\s"']{2,199})`,
      'g',
    ),
    group: 3,
    accept: commandValue,
    hints: ['sshpass', 'login', 'redis-cli'],
  },
  // zip -P SECRET, ssh-keygen -N SECRET, httpie -a user:SECRET.
  {
    kind: 'password',
    pattern: new RegExp(
      `(${start}(?:zip[^\\n|;&]{0,300}?[ \\t]-P|ssh-keygen[^\\n|;&]{0,300}?[ \\t]-N|http[^\\n|;&]{0,300}?[ \\t](?:-a|--auth)[ \\t]{1,5}["']?[^\\s:"'[\\]]{1,100}:)[ \\t]{0,5}(["']?))([^\\s"'[\\]-][^\\s"'[\\]]{2,199})`,
      'g',
    ),
    group: 3,
    accept: commandValue,
    hints: ['zip', 'ssh-keygen', 'http'],
  },
  // curl -u user:SECRET (the options before -u tried last, as in mysqlP: two curls on a line each lose theirs)
  {
    kind: 'password',
    pattern: new RegExp(
      `(${start}curl(?:\\.exe)?(?:[ \\t][^\\n|;&]{0,300}?)??[ \\t](?:-u[ \\t]{0,5}|--user(?:=|[ \\t]{1,5}))["']?[^\\s:"'[\\]]{1,100}:)([^\\s"'[\\]]{3,200})`,
      'g',
    ),
    group: 2,
    accept: commandValue,
    hints: ['curl'],
  },
];

export const RULES: readonly Rule[] = [
  { kind: 'private-key', pattern: /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]{0,40}PRIVATE KEY-----|$)/g, hints: ['PRIVATE KEY'] },
  { kind: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,400}/g, hints: ['sk-ant-'] },
  { kind: 'openai-key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,400}/g, hints: ['sk-'] },
  {
    kind: 'github-token',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{40,255})/g,
    gate: gate(/gh[pousr]_|github_pat_/, ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_']),
  },
  { kind: 'gitlab-token', pattern: /\bglpat-[A-Za-z0-9_-]{20,100}/g, hints: ['glpat-'] },
  { kind: 'slack-token', pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,200}/g, hints: ['xox'] },
  // Slack app-level tokens: xapp-1-<app id>-<number>-<hex>.
  { kind: 'slack-token', pattern: /\bxapp-\d{1,2}-[A-Za-z0-9]{6,20}-\d{6,20}-[A-Za-z0-9]{20,200}/g, hints: ['xapp-'] },
  { kind: 'aws-access-key', pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, hints: ['AKIA', 'ASIA'] },
  // An AWS secret access key with no name next to it (a name's rules take that one, as `secret`):
  // exactly 40 base64 characters on their own (not a piece of a longer run: an image, an integrity
  // hash), shaped as awsSecret says, near `aws` or an access key id (nearAws).
  {
    kind: 'aws-secret-key',
    pattern: /(^|[^\w/+=.-])([A-Za-z0-9/+]{40})(?![\w/+=-]|\.\w)/g,
    group: 2,
    accept: awsSecret,
    around: nearAws,
    hints: ['aws', 'AWS', 'Aws', 'AKIA', 'ASIA'],
  },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g, hints: ['AIza'] },
  { kind: 'stripe-key', pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,200}/g, hints: ['_live_', '_test_'] },
  // Webhook signing secrets: Stripe's whsec_ and 32 alphanumerics, Svix's (Clerk, Resend…) whsec_ and base64.
  { kind: 'webhook-secret', pattern: /\bwhsec_[A-Za-z0-9+/]{24,200}={0,2}/g, hints: ['whsec_'] },
  { kind: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g, hints: ['npm_'] },
  { kind: 'pypi-token', pattern: /\bpypi-AgE[A-Za-z0-9_-]{50,400}/g, hints: ['pypi-AgE'] },
  { kind: 'huggingface-token', pattern: /\bhf_[A-Za-z0-9]{30,100}\b/g, hints: ['hf_'] },
  { kind: 'vault-token', pattern: /\bhv[sbr]\.[A-Za-z0-9_-]{20,300}/g, gate: gate(/hv[sbr]\./, ['hvs.', 'hvb.', 'hvr.']) },
  ...commandRules(COMMAND_START),
  ...commandRules(ASSIGNED_COMMAND_START).map((rule) => ({ ...rule, gate: ASSIGNED_COMMAND_GATE })),
  // Config files whose secret is under a name of its own: npm's `_auth=`/`_authToken=`, docker's
  // config.json `"auth": "<base64>"`, Azure's `AccountKey=`, a .netrc's `password`, a Dockerfile's
  // `ENV DB_PASSWORD value`.
  {
    kind: 'secret',
    pattern: /((?:^|[\s;"'])(?:\/\/[^\s:]{1,200}:)?_(?:auth|authToken|password)[ \t]{0,3}=[ \t]{0,3}["']?)([^\s"']{8,500})/gm,
    group: 2,
    accept: commandValue,
    hints: ['_auth', '_password'],
  },
  { kind: 'secret', pattern: /("auth"[ \t]{0,3}:[ \t]{0,3}")([A-Za-z0-9+/=]{12,500})(")/g, group: 2, hints: ['"auth"'] },
  { kind: 'secret', pattern: /(\b(?:AccountKey|SharedAccessKey)=)([A-Za-z0-9+/=]{20,500})/g, group: 2, hints: ['AccountKey', 'SharedAccessKey'] },
  {
    kind: 'password',
    pattern: /(\bmachine[ \t]{1,5}\S{1,200}(?:[ \t]{1,5}login[ \t]{1,5}\S{1,200})?[ \t]{1,5}password[ \t]{1,5})(\S{3,500})/g,
    group: 2,
    accept: commandValue,
    hints: ['machine'],
  },
  {
    kind: 'secret',
    pattern: new RegExp(`^([ \\t]{0,12}(?:ENV|ARG)[ \\t]{1,5}${ENV_NAME}[ \\t]{1,5}["']?)([^\\s"'=][^\\s"']{0,499})`, 'gm'),
    group: 2,
    accept: commandValue,
    gate: ENV_GATE,
  },
  // keytool -storepass/-keypass SECRET, openssl -passout/-passin pass:SECRET.
  {
    kind: 'password',
    pattern: /((?:^|[\s|;&(`'"])-(?:storepass|keypass|srcstorepass|deststorepass|passout|passin)[ \t]{1,5}(?:pass:)?(["']?))([^\s"'-][^\s"']{2,199})/g,
    group: 3,
    accept: commandValue,
    hints: ['pass'],
  },
  // Webhook URLs whose path is the credential (Slack, Discord).
  {
    kind: 'webhook-url',
    pattern: /(\bhttps:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/)([A-Za-z0-9_/-]{20,300})/g,
    group: 2,
    hints: ['hooks.slack.com'],
  },
  {
    kind: 'webhook-url',
    pattern: /(\bhttps:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api(?:\/v\d{1,2})?\/webhooks\/\d{5,30}\/)([A-Za-z0-9_-]{20,200})/g,
    group: 2,
    hints: ['discord'],
  },
  // Vault's legacy service tokens (`s.` and 24 characters of mixed case and digits).
  {
    kind: 'vault-token',
    pattern: /((?<![\w.$])s\.)([A-Za-z0-9]{24}(?:\.[A-Za-z0-9]{1,10})?)(?!\w)/g,
    group: 2,
    accept: (v) => /\d/.test(v.slice(0, 24)) && /[a-z]/.test(v.slice(0, 24)) && /[A-Z]/.test(v.slice(0, 24)),
  },
  // A password piped to a command that reads it from stdin: `echo 'pw' | docker login --password-stdin`,
  // `| sudo -S`, `| passwd --stdin`, `| chpasswd`, `| openssl … -passin stdin`.
  {
    kind: 'password',
    pattern: new RegExp(`(${ECHO}(["']))([^"'\\n]{3,200})\\2(?=${STDIN_READER})`, 'g'),
    group: 3,
    accept: commandValue,
    hints: ['echo', 'printf'],
    gate: gate(/--password-stdin|--stdin|sudo|chpasswd|-passin/, ['-stdin', 'sudo', 'chpasswd', '-passin']),
  },
  {
    kind: 'password',
    pattern: new RegExp(`(${ECHO})([^\\s"'|;&$\`]{3,200})(?=${STDIN_READER})`, 'g'),
    group: 2,
    accept: commandValue,
    hints: ['echo', 'printf'],
    gate: gate(/--password-stdin|--stdin|sudo|chpasswd|-passin/, ['-stdin', 'sudo', 'chpasswd', '-passin']),
  },
  // A heredoc fed to such a command: `docker login --password-stdin <<EOF`, `cat <<'EOF' | vault
  // login -`, `chpasswd <<END`: its lines up to the closing tag, ten at most (or a variable alone:
  // not a secret). The body is matched line by line: a scan checking for the tag at every
  // character cost 300 ms on 1.5 MB of heredocs left open.
  {
    kind: 'password',
    pattern: new RegExp(
      `((?:${HEREDOC_READER})[^\\n]{0,300}?<<-?[ \\t]{0,3}(["']?)([A-Za-z_]\\w{0,20})\\2[^\\n]{0,300}\\n)([^\\n]{1,200}(?:\\n(?![ \\t]*\\3[ \\t]*(?:\\r?\\n|$))[^\\n]{0,200}){0,9})(?=\\n[ \\t]*\\3[ \\t]*(?:\\r?\\n|$))`,
      'g',
    ),
    group: 4,
    accept: heredocValue,
    gate: HEREDOC_GATE,
  },
  {
    kind: 'password',
    pattern: new RegExp(
      `(<<-?[ \\t]{0,3}(["']?)([A-Za-z_]\\w{0,20})\\2[^\\n]{0,300}?(?:${HEREDOC_READER})[^\\n]{0,300}\\n)([^\\n]{1,200}(?:\\n(?![ \\t]*\\3[ \\t]*(?:\\r?\\n|$))[^\\n]{0,200}){0,9})(?=\\n[ \\t]*\\3[ \\t]*(?:\\r?\\n|$))`,
      'g',
    ),
    group: 4,
    accept: heredocValue,
    gate: HEREDOC_GATE,
  },
  { kind: 'sendgrid-key', pattern: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![\w-])/g, hints: ['SG.'] },
  // gh secret set NAME --body "value" (or -b).
  {
    kind: 'secret',
    pattern: /(\bgh[ \t]{1,5}secret[ \t]{1,5}set\b[^\n|;&]{0,300}?[ \t](?:--body|-b)(?:=|[ \t]{0,5})(["']))([^"'\n]{3,500})(\2)/g,
    group: 3,
    accept: commandValue,
    hints: ['secret'],
  },
  {
    kind: 'secret',
    pattern: /(\bgh[ \t]{1,5}secret[ \t]{1,5}set\b[^\n|;&]{0,300}?[ \t](?:--body|-b)(?:=|[ \t]{1,5}))([^\s"'-][^\s"']{2,499})/g,
    group: 2,
    accept: commandValue,
    hints: ['secret'],
  },
  // A setter or option whose name ends in a secret's, called with a random-looking literal:
  // Go's `option.WithToken("…")`, `client.SetPassword("…")`, `useApiKey('…')`.
  {
    kind: 'secret',
    pattern:
      /(\b(?:[Ww]ith|[Ss]et|[Uu]se)(?:[A-Z][a-z]{1,15}|[A-Z]{2,6}){0,2}(?:Token|Password|Secret|ApiKey|APIKey|AccessKey|SecretKey|PrivateKey|AuthKey|Credentials?)[ \t]{0,3}\([ \t]{0,3}(["'`]))([^"'`\s]{8,300})(\2[ \t]{0,3}\))/g,
    group: 3,
    // Not a name or a path (`useToken("refresh_token_v2")`, `WithSecret("projects/p/secrets/k/versions/1")`).
    accept: (v) => commandValue(v) && looksRandom(v) && !/^[a-z][a-z0-9]*(?:[_/.-][a-z0-9]+)+$/.test(v),
    named: true,
  },
  // npm config set _auth/_authToken/_password VALUE (the same keys as in .npmrc, set from a shell).
  {
    kind: 'secret',
    pattern:
      /(\bnpm[ \t]{1,5}config[ \t]{1,5}set(?:[ \t]{1,5}--?[\w-]{1,20}(?:=\S{1,40})?){0,3}[ \t]{1,5}["']?(?:\/\/[^\s:"']{1,200}:)?_(?:auth|authToken|password)["']?(?:=|[ \t]{1,5})["']?)([^\s"']{8,500})/g,
    group: 2,
    accept: commandValue,
    hints: ['_auth', '_password'],
  },
  // Go's MySQL DSN: user:password@tcp(host:3306)/db.
  {
    kind: 'url-password',
    pattern: /((?<![\w.-])[\w.-]{1,64}:)([^\s"'()/]{3,200}?)(@(?:(?:tcp|unix|udp)\(|\/\w))/g,
    group: 2,
    accept: commandValue,
    hints: ['@tcp(', '@unix(', '@udp(', '@/'],
  },
  // A .netrc entry over several lines: `machine <host>`, then within two lines a password line (either
  // also behind Read's or Grep's line prefix). Not "machine learning … password policy".
  {
    kind: 'password',
    pattern: new RegExp(
      `(^${LINE_PREFIX}[ \\t]{0,12}machine[ \\t]{1,5}[\\w-]{1,100}(?:\\.[\\w-]{1,100}){1,10}[^\\n]{0,300}\\n(?:[^\\n]{0,300}\\n){0,2}?${LINE_PREFIX}[ \\t]{0,12}password[ \\t]{1,5})([^\\s]{3,500})`,
      'gm',
    ),
    group: 2,
    accept: commandValue,
    hints: ['machine'],
  },
  // A .pgpass line: host:port:database:user:password (port a number or *, database not a number:
  // `src/app.ts:42:10:…` is a compiler's position), alone on its line (or behind Read's line number).
  {
    kind: 'password',
    pattern: /^((?:[ \t]{0,12}\d{1,9}(?:→|\t))?[ \t]{0,12}[\w.*-]{1,253}:(?:\d{1,5}|\*):(?!\d{1,9}:)[^\s:]{1,63}:[^\s:]{1,63}:)([^\s]{3,200})[ \t]*\r?$/gm,
    group: 2,
    accept: commandValue,
    gate: /:(?:\d{1,5}|\*):[^\s:]{1,63}:[^\s:]{1,63}:[^\s:]/,
  },
  // Said in prose: "my db password is Hunter2Blue!", "the api key is …": a value with a letter and a digit.
  {
    kind: 'secret',
    pattern:
      /(\b(?:password|passwd|passphrase|api[ _-]?key|secret[ _-]?key|access[ _-]?key|token)[ \t]{1,3}(?:is|was|will be)[ \t]{0,3}:?[ \t]{1,3}["'`]?)([^\s"'`,;]{6,200}?)(?=["'`]?(?:[,;.!?)]?(?:\s|$)))/gi,
    group: 2,
    // Not a description: base64-encoded, ES256-signed, sha256-hashed.
    accept: (v) => commandValue(v) && /\d/.test(v) && /[A-Za-z]/.test(v) && !NOT_A_SECRET.test(v) && !/^\w+-[a-z]{3,}$/.test(v),
    named: true,
  },
  // "login with password Qz4Nf8TkW1pRx6Ja", "use token 9f8e7d6c5b4a": a password, token or secret
  // named in prose, right before a random-looking value with a letter and a digit, in one piece:
  // not "token count 4096", "the secret ES256-signed", a Kubernetes secret's name
  // (`get secret db-creds-v2`, `default-token-x7k2p`), "token CVE-2023-45857", `secret_v2_name`.
  {
    kind: 'secret',
    pattern: /(\b(?:password|passwd|passphrase|token|secret)[ \t]{0,3}:?[ \t]{1,3})([A-Za-z0-9_-]{10,200})(?![\w-])/gi,
    group: 2,
    accept: (v) => looksRandom(v) && /\d/.test(v) && /[A-Za-z]/.test(v) && !/[-_]/.test(v),
    named: true,
  },
  // "use api key 8a7b6c5d4e3f2a1b0c9d": a key named in prose and given right after its name.
  {
    kind: 'secret',
    pattern: /(\b(?:api[ _-]?key|access[ _-]?key|secret[ _-]?key)[ \t]{0,3}:?[ \t]{1,3})([A-Za-z0-9_-]{16,200})(?![\w-])/gi,
    group: 2,
    accept: (v) => looksRandom(v) && /\d/.test(v),
    named: true,
  },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,2000}\.eyJ[A-Za-z0-9_-]{8,4000}\.[A-Za-z0-9_-]{8,2000}/g, hints: ['eyJ'] },
  // scheme://[user]:password@host
  {
    kind: 'url-password',
    pattern: /\b([a-z][a-z0-9+.-]{0,31}:\/\/[^\s:/@[\]]{0,100}:)([^\s@/[\]]{3,200})(@)/gi,
    group: 2,
    // Not a variable (`app:${DB_PASSWORD}@`) or the word itself (`user:password@localhost`).
    accept: (v) => !v.startsWith('$') && !/^(?:password|passwd|pass|secret|pwd)$/i.test(v),
    hints: ['://'],
  },
  { kind: 'bearer-token', pattern: /\b((?:Bearer|Token)\s{1,5})([A-Za-z0-9._~+/=-]{16,2000})/g, group: 2, hints: ['Bearer', 'Token'] },
  // In other cases, after an Authorization header (`AUTHORIZATION: bearer …`, `Authorization: token …`)
  // or as a word with a random-looking token ("bearer token-based-auth" in prose is left).
  {
    kind: 'bearer-token',
    pattern: /\b((?:authorization:[ \t]{0,5}(?:bearer|token)|bearer)[ \t]{1,5})([A-Za-z0-9._~+/=-]{16,2000})/gi,
    group: 2,
    accept: (v) => /\d/.test(v),
    gate: gate(/bearer|authorization/i, ['bearer', 'authorization']),
  },
  {
    kind: 'basic-auth',
    pattern: /\b(authorization:[ \t]{0,5}basic[ \t]{1,5})([A-Za-z0-9+/=]{8,500})/gi,
    group: 2,
    gate: gate(/authorization/i, ['authorization']),
  },
  // A cookie's value in a Set-Cookie header (its first pair: the attributes after it are no secret),
  // and a Cookie header's pairs, all in one marker when one value looks random (a session id; not
  // `theme=dark`): a rule replaces one secret per match, and a pattern per pair would need a
  // lookbehind to the header at every `;`.
  {
    kind: 'cookie',
    pattern: new RegExp(`(\\bset-cookie["']?[ \\t]{0,3}:[ \\t]{0,5}["']?${COOKIE_NAME}=)(${COOKIE_VALUE})`, 'gi'),
    group: 2,
    accept: looksRandom,
    gate: COOKIE_GATE,
  },
  {
    kind: 'cookie',
    pattern: new RegExp(
      `(\\bcookie(?<!set-cookie)["']?[ \\t]{0,3}:[ \\t]{0,5}["']?)(${COOKIE_NAME}=${COOKIE_VALUE}(?:;[ \\t]{0,3}${COOKIE_NAME}=${COOKIE_VALUE}){0,100})`,
      'gi',
    ),
    group: 2,
    accept: (pairs) => pairs.split(';').some((pair) => looksRandom(pair.slice(pair.indexOf('=') + 1))),
    gate: COOKIE_GATE,
  },
  // name: "value" / name = 'value' / "name": "value" (quoted: spaces allowed inside)
  {
    kind: 'secret',
    pattern: new RegExp(`((?:^|[^A-Za-z0-9_])["']?${NAME}["']?[ \\t]{0,5}${ASSIGN}[ \\t]{0,5}(["']))([^"'\\n]{4,500})(\\2)`, 'gim'),
    group: 3,
    accept: isLiteral,
    named: true,
  },
  // A name/value pair whose name is a secret's: Kubernetes' and Compose's `- name: DB_PASSWORD` with
  // `value: …` on the next line, ECS's and Terraform's `{"name": "API_KEY", "value": "…"}` (also
  // pretty-printed, as `kubectl … -o json` prints it). Not a named rule: the value is on another
  // line than the name. Not `valueFrom:`, not a name in prose. A quoted value is a literal with a
  // digit or a symbol (not `"vault"`, `"HS256"`); an unquoted one must look random (not Terraform's
  // `var.db_password` or `random_password.root.result`).
  {
    kind: 'secret',
    pattern: new RegExp(`(${NAME_VALUE_PAIR}(["']))([^"'\\n]{1,500}?)(\\3)(?=[ \\t]{0,20}(?:[,}\\]#]|\\r?$))`, 'gim'),
    group: 4,
    accept: (v) => commandValue(v) && v.length >= 6 && /[^A-Za-z]/.test(v) && !/^\d+$/.test(v),
    gate: NAME_VALUE_GATE,
  },
  {
    kind: 'secret',
    pattern: new RegExp(`(${NAME_VALUE_PAIR})([^"'\\s,}\\]#]{8,500})(?=[ \\t]{0,20}(?:[,}\\]#]|\\r?$))`, 'gim'),
    group: 3,
    accept: looksRandom,
    gate: NAME_VALUE_GATE,
  },
  // An XML element named for a secret (Maven's settings.xml, Tomcat, .NET configs, WS-Security):
  // <password>…</password> takes any literal, <token> or <secret> a random-looking one (JSX's
  // <Token>{…}</Token> and <secret>enabled</secret> are no secrets).
  {
    kind: 'secret',
    pattern: new RegExp(
      `(${xmlOpen('password|passwd|passphrase|storepass|keypass')}${XML_BREAK})([^<>\\s][^<>\\n]{0,499}?)(${XML_BREAK}[ \\t]{0,5}<\\/\\2[ \\t]*>)`,
      'gi',
    ),
    group: 3,
    accept: xmlValue,
    gate: gate(/(?:password|passwd|passphrase|storepass|keypass)(?:[ \t][^<>]{0,300})?>/i, ['passw', 'passphrase', 'storepass', 'keypass'], ['>']),
  },
  {
    kind: 'secret',
    pattern: new RegExp(
      `(${xmlOpen('secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|secret[_-]?key')}${XML_BREAK})([^<>\\s][^<>\\n]{0,499}?)(${XML_BREAK}[ \\t]{0,5}<\\/\\2[ \\t]*>)`,
      'gi',
    ),
    group: 3,
    accept: (v) => xmlValue(v) && looksRandom(v),
    // Not a named rule (those run on a line at a time): the value may be on the line after the tag.
    gate: gate(
      /<[\w.:-]{0,40}?(?:secret[_-]?key|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key)[ \t>]/i,
      ['<'],
      ['secret', 'token', 'api', 'access', 'private'],
    ),
  },
  // define('DB_PASSWORD', '…') (PHP), setenv/putenv/set/put('api_key', '…'), and a subscript
  // assignment: os.environ["DB_PASSWORD"] = "…", ENV['API_KEY'] = '…'.
  {
    kind: 'secret',
    pattern: new RegExp(
      `(\\b(?:define|setenv|putenv|SetEnvironmentVariable|ini_set|setProperty|setItem|set|put)[ \\t]{0,3}\\([ \\t]{0,3}["']${NAME}["'][ \\t]{0,3},[ \\t]{0,20}(["']))([^"'\\n]{4,500})(\\2)`,
      'gi',
    ),
    group: 3,
    // Any literal: WordPress's generated salts hold `$` and `<`.
    accept: (v) => v.length >= 4 && !NOT_A_SECRET.test(v) && !/^\$\{?[A-Za-z_]\w*\}?$|^(?:your[_-]|changeme$|example|dummy|put your)/i.test(v),
    named: true,
  },
  {
    kind: 'secret',
    pattern: new RegExp(`(\\[[ \\t]{0,3}(?::${NAME}|["']${NAME}["'])[ \\t]{0,3}\\][ \\t]{0,5}=[ \\t]{0,5}(["']))([^"'\\n]{4,500})(\\2)`, 'gi'),
    group: 3,
    accept: isLiteral,
    named: true,
  },
  // NAME=value alone on a line (.env files, shell exports, either seen through Read or Grep): any
  // literal value, but not a keyword argument of a call (`password=password,`).
  {
    kind: 'secret',
    pattern: new RegExp(`^(${LINE_PREFIX}[ \\t]{0,20}(?:export[ \\t]{1,5})?${NAME}=["']?)([^\\s"'\\n]{1,500})`, 'gim'),
    group: 2,
    accept: (v) => isLiteral(v) && !/[,;()]$/.test(v),
    named: true,
  },
  // ?api_key=value&…
  { kind: 'secret', pattern: new RegExp(`([?&]${NAME}=)([^&\\s#"']{4,500})`, 'gi'), group: 2, accept: isLiteral, named: true },
  // --password VALUE, --token=VALUE, --db-pass "two words": a flag whose name ends in a secret's
  // (not --password-stdin, --token-limit, --pass-through), the next word a literal.
  // (Run on the whole text, not only on the lines NAME_WORD finds: `--pass` is no NAME.)
  { kind: 'secret', pattern: new RegExp(`(${FLAG}(["']))([^"'\\n]{4,500})(\\2)`, 'gim'), group: 3, accept: isLiteral, gate: FLAG_GATE },
  { kind: 'secret', pattern: new RegExp(`(${PASSWORD_FLAG})([^\\s"'\`-][^\\s"'\`]{3,499})`, 'gim'), group: 2, accept: flagValue, gate: FLAG_GATE },
  {
    kind: 'secret',
    pattern: new RegExp(`(${TOKEN_FLAG})([^\\s"'\`-][^\\s"'\`]{3,499})`, 'gim'),
    group: 2,
    accept: (v) => flagValue(v) && looksRandom(v),
    gate: FLAG_GATE,
  },
  // An environment variable named in capitals, set anywhere on a line (`docker run -e POSTGRES_PASSWORD=…`,
  // `PGPASSWORD=… psql`, behind Read's `→` or Grep's `:`) or as a YAML key (compose's
  // `MYSQL_ROOT_PASSWORD: …`): any literal value.
  {
    kind: 'secret',
    pattern: new RegExp(`((?:^|[\\s;&|(→:])["']?${ENV_NAME}=(["']))([^"'\\n]{1,500})(\\2)`, 'gm'),
    group: 3,
    accept: envValue,
    gate: ENV_GATE,
  },
  {
    kind: 'secret',
    pattern: new RegExp(`((?:^|[\\s;&|(→:])["']?${ENV_NAME}=)([^\\s"'\`;&|]{1,500})`, 'gm'),
    group: 2,
    accept: envValue,
    gate: ENV_GATE,
  },
  {
    kind: 'secret',
    pattern: new RegExp(`^([ \\t]{0,40}(?:-[ \\t]{1,5})?["']?${ENV_NAME}["']?:[ \\t]{1,5}["']?)([^\\s"'\`#]{1,500})`, 'gm'),
    group: 2,
    accept: envValue,
    gate: ENV_GATE,
  },
  // kubectl --from-literal=, helm --set, terraform -var, docker --build-arg: key=value, the key ending in a
  // secret's name (not helm's `ingress.tls.secretName=…` or `image.pullSecret=…`, which name one).
  {
    kind: 'secret',
    pattern:
      /((?:--from-literal=|--set(?:-string)?[ \t=]|-var[ \t=]|--build-arg[ \t=])["']?[A-Za-z0-9_.-]{0,60}(?:password|passwd|token|api[_-]?key|secret[_-]?key)=)([^\s,"']{1,500})/gi,
    group: 2,
    accept: commandValue,
    named: true,
    hints: ['--from-literal', '--set', '-var', '--build-arg'],
  },
  // aws configure set aws_secret_access_key …
  {
    kind: 'secret',
    pattern:
      /(\baws[ \t]{1,5}configure[ \t]{1,5}set[ \t]{1,5}[A-Za-z0-9_.]{0,60}(?:secret|token|password)[A-Za-z0-9_.]{0,40}[ \t]{1,5})([^\s"'-][^\s"']{3,499})/gi,
    group: 2,
    named: true,
    hints: ['aws'],
  },
  // htpasswd -b <file> <user> PASSWORD
  {
    kind: 'password',
    pattern: /(\bhtpasswd[ \t]{1,5}-[A-Za-z]{0,5}b[A-Za-z]{0,5}[ \t]{1,5}[^\s]{1,300}[ \t]{1,5}[^\s]{1,100}[ \t]{1,5})([^\s"']{3,200})/g,
    group: 2,
    accept: commandValue,
    hints: ['htpasswd'],
  },
  // A libpq or ODBC connection string's password (`host=db user=app password=…`).
  {
    kind: 'password',
    pattern:
      /(\b(?:host|user|dbname|port|server|uid)=[^\s;]{1,200}[ \t;]{1,3}(?:[a-z]{1,20}=[^\s;]{1,200}[ \t;]{1,3}){0,6}(?:password|pwd)=)([^\s;'",)]{1,200})/gi,
    group: 2,
    accept: commandValue, // not a keyword argument (`connect(host=host, password=password)`)
    // Not `named`: ODBC says `Pwd=`, which is no NAME.
    gate: gate(/(?:password|pwd)=/i, ['password=', 'pwd=']),
  },
  // A password said unquoted at a line's end (`password: hunter2` in YAML, `db_password = s3cr3t!`):
  // shorter than the rule below takes, so it must hold a digit or a symbol (not a word of prose:
  // "password: changed"), and not be a variable, a member or a type.
  {
    kind: 'secret',
    pattern: new RegExp(
      `((?:^|[^A-Za-z0-9_])["']?[A-Za-z0-9_.-]{0,40}?(?:password|passwd|passphrase)["']?[ \\t]{0,5}${ASSIGN}[ \\t]{0,5})([^\\s"'\`,;(){}<>\\[\\]=]{6,200})(?=[ \\t]{0,20}(?:#[^\\n]{0,300})?\\r?$)`,
      'gim',
    ),
    group: 2,
    accept: (v) => {
      const bare = v.replace(/[.!?:]+$/, ''); // what ends a sentence is not what makes it a password
      // A digit or a symbol, but not only an identifier's `_` (`password = password_ptr`), nor a
      // pointer, address or variable (`*passwordFlag`, `&cfg.Password`, `@password`), nor an issue key (GH-1234).
      if (!/[^A-Za-z_]/.test(bare) || /^[A-Za-z_]\w*_\w*$/.test(bare) || /^[*&@$]/.test(bare) || /^[A-Z]{2,10}-\d+$/.test(bare)) return false;
      return commandValue(bare) && !/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(bare);
    },
    named: true,
  },
  // name: value / name = value / --name=value, unquoted: only values that look random.
  {
    kind: 'secret',
    pattern: new RegExp(`((?:^|[^A-Za-z0-9_])["']?${NAME}["']?[ \\t]{0,5}${ASSIGN}[ \\t]{0,5})([^\\s"'\`,;(){}<>\\[\\]]{8,500})(?![(\\[])`, 'gim'),
    group: 2,
    accept: looksRandom,
    named: true,
  },
];
