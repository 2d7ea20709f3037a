// lib/archive/redact.ts with the rules of lib/archive/secret-rules.ts: a corpus of true secrets that
// must be removed with the right `[REDACTED:<kind>]` marker, and of look-alikes (hashes, ids,
// ordinary code and prose) that must survive unchanged. A failure here is a precision or recall bug
// in the redactor, not in the corpus.
//
// The secrets are fake and assembled at run time from pieces, so that no complete token sits in the
// source (secret scanners on the repository would flag it otherwise).
import { describe, expect, it } from 'vitest';
import { HINTS, hintsIn, redact, redactText, stripPrivate } from '../../lib/archive/redact.ts';
import { GATE_WORDS, RULES } from '../../lib/archive/secret-rules.ts';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ALNUM = `${UPPER}abcdefghijklmnopqrstuvwxyz0123456789`;
const URLSAFE = `${ALNUM}-_`;
const HEX = '0123456789abcdef';

/** Deterministic pseudo-random text of `n` characters from `alphabet`. */
function rnd(n: number, seed: number, alphabet = ALNUM): string {
  let x = seed * 2654435761 + 1;
  let out = '';
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += alphabet[Math.floor((x / 2147483648) * alphabet.length)];
  }
  return out;
}
const cat = (...parts: string[]) => parts.join('');
const b64url = (s: string) => Buffer.from(s).toString('base64url');

const slackHook = cat('https://hooks.', 'slack.com/services/', 'T0', rnd(9, 41, UPPER), '/B0', rnd(9, 42, UPPER), '/', rnd(24, 43));
const discordHook = cat('https://discord.com/api/', 'webhooks/', '123456789012345678/', rnd(68, 44, URLSAFE));
const vaultLegacy = cat('s', '.', 'Ab1', rnd(21, 45));
const anthropicKey = cat('sk-', 'ant-', 'api03-', rnd(93, 1, URLSAFE), 'AA');
const anthropicAdmin = cat('sk-', 'ant-', 'admin01-', rnd(80, 2, URLSAFE));
const openaiProject = cat('sk-', 'proj-', rnd(156, 3, URLSAFE));
const openaiLegacy = cat('sk-', rnd(48, 4));
const ghp = cat('gh', 'p_', rnd(36, 5));
const ghPat = cat('github', '_pat_', rnd(22, 6), '_', rnd(59, 7));
const glpat = cat('gl', 'pat-', rnd(20, 8, URLSAFE));
const slackBot = cat('xo', 'xb-', '123456789012-', '1234567890123-', rnd(24, 9));
const slackUser = cat('xo', 'xp-', '1234567890-', '1234567890123-', '1234567890123-', rnd(32, 10, HEX));
const awsAccess = cat('AK', 'IA', rnd(16, 11, `${UPPER}234567`));
const awsSecret = rnd(40, 12, `${ALNUM}/+`);
const googleKey = cat('AI', 'za', rnd(34, 13, URLSAFE), 'Q');
const stripeLive = cat('sk', '_live_', rnd(24, 14));
const stripeRestricted = cat('rk', '_test_', rnd(24, 15));
const npmToken = cat('np', 'm_', rnd(36, 16));
const jwt = [b64url('{"alg":"HS256","typ":"JWT"}'), b64url('{"sub":"1234567890","name":"Jane","iat":1516239022}'), rnd(43, 17, URLSAFE)].join('.');
const pemBody = Array.from({ length: 6 }, (_, i) => rnd(64, 20 + i, `${ALNUM}+/`)).join('\n');
const rsaKey = `-----BEGIN RSA ${'PRIVATE'} KEY-----\n${pemBody}\n-----END RSA PRIVATE KEY-----`;
const opensshKey = `-----BEGIN OPENSSH ${'PRIVATE'} KEY-----\n${pemBody}\n-----END OPENSSH PRIVATE KEY-----`;
const pkcs8InJson = `-----BEGIN ${'PRIVATE'} KEY-----\\n${pemBody.replaceAll('\n', '\\n')}\\n-----END PRIVATE KEY-----\\n`;
const apiKeyHex = rnd(32, 30, HEX);
const clientSecret = rnd(40, 31, URLSAFE);
const opaque = rnd(40, 32);
const djangoKey = rnd(50, 33);
const sendgridKey = cat('S', 'G.', rnd(22, 34, URLSAFE), '.', rnd(43, 35, URLSAFE));
const slackApp = cat('xa', 'pp-1-', 'A0', rnd(9, 51, UPPER), '-', '1234567890123-', rnd(64, 52, HEX));
const slackRefresh = cat('xo', 'xe-1-', rnd(40, 53));
const stripeWebhook = cat('wh', 'sec_', rnd(32, 54));
const svixWebhook = cat('wh', 'sec_', rnd(32, 55, `${ALNUM}+/`), '=');
// A bare AWS secret key: 40 base64 characters with upper and lower case and digits (checked below).
const awsBare = cat('wJ', rnd(36, 56, `${ALNUM}/+`), 'a7');
const sessionCookie = rnd(32, 57, 'abcdefghijklmnopqrstuvwxyz0123456789');

interface Positive {
  name: string;
  text: string;
  /** Strings that must not survive. */
  secrets: string[];
  /** The marker kind; undefined when any `[REDACTED:…]` marker will do. */
  kind: string | undefined;
  /** When given, the whole expected output. */
  expected?: string;
}

const POSITIVES: Positive[] = [
  { name: 'Anthropic API key in an env assignment', text: `ANTHROPIC_API_KEY=${anthropicKey}`, secrets: [anthropicKey], kind: 'anthropic-key' },
  {
    name: 'Anthropic admin key in a curl header',
    text: `curl -H "x-api-key: ${anthropicAdmin}" https://api.anthropic.com/v1/models`,
    secrets: [anthropicAdmin],
    kind: 'anthropic-key',
  },
  { name: 'OpenAI project key in prose', text: `the key is ${openaiProject}, do not share it`, secrets: [openaiProject], kind: 'openai-key' },
  { name: 'OpenAI legacy key', text: `openai.api_key = "${openaiLegacy}"`, secrets: [openaiLegacy], kind: 'openai-key' },
  {
    name: 'GitHub classic token in a remote URL',
    text: `git remote set-url origin https://${ghp}@github.com/acme/app.git`,
    secrets: [ghp],
    kind: 'github-token',
  },
  { name: 'GitHub fine-grained token', text: `gh auth login --with-token <<< ${ghPat}`, secrets: [ghPat], kind: 'github-token' },
  { name: 'GitHub token exported in a shell', text: `export GITHUB_TOKEN=${ghp}`, secrets: [ghp], kind: 'github-token' },
  { name: 'GitLab personal access token', text: `PRIVATE-TOKEN: ${glpat}`, secrets: [glpat], kind: 'gitlab-token' },
  { name: 'Slack bot token', text: `slack_client = WebClient(token="${slackBot}")`, secrets: [slackBot], kind: 'slack-token' },
  { name: 'Slack user token', text: `SLACK_USER=${slackUser}`, secrets: [slackUser], kind: 'slack-token' },
  { name: 'AWS access key id', text: `aws_access_key_id = ${awsAccess}`, secrets: [awsAccess], kind: 'aws-access-key' },
  { name: 'AWS secret access key', text: `aws_secret_access_key = ${awsSecret}`, secrets: [awsSecret], kind: 'secret' },
  { name: 'Google API key', text: `const url = \`https://maps.googleapis.com/maps/api/js?key=${googleKey}\``, secrets: [googleKey], kind: 'google-api-key' },
  { name: 'Stripe live secret key', text: `stripe.api_key = '${stripeLive}'`, secrets: [stripeLive], kind: 'stripe-key' },
  { name: 'Stripe restricted key', text: `STRIPE_RESTRICTED=${stripeRestricted}`, secrets: [stripeRestricted], kind: 'stripe-key' },
  { name: 'npm token in .npmrc', text: `//registry.npmjs.org/:_authToken=${npmToken}`, secrets: [npmToken], kind: 'npm-token' },
  { name: 'JWT in a cookie', text: `Set-Cookie: session=${jwt}; HttpOnly`, secrets: [jwt], kind: 'jwt' },
  { name: 'RSA private key (PEM)', text: `here it is:\n${rsaKey}\nthanks`, secrets: [pemBody.slice(0, 64), 'END RSA PRIVATE KEY'], kind: 'private-key' },
  { name: 'OpenSSH private key', text: opensshKey, secrets: [pemBody.slice(64, 128)], kind: 'private-key' },
  {
    name: 'private key inside a service-account JSON',
    text: `{"type": "service_account", "private_key": "${pkcs8InJson}", "client_email": "bot@proj.iam.gserviceaccount.com"}`,
    secrets: [pemBody.slice(0, 64)],
    kind: 'private-key',
  },
  {
    name: 'password in a postgres URL',
    text: 'DATABASE_URL=postgres://admin:s3cretPassw0rd@db.example.com:5432/app',
    secrets: ['s3cretPassw0rd'],
    kind: 'url-password',
  },
  {
    name: 'password in a mongodb+srv URL',
    text: 'mongosh "mongodb+srv://user:pa55word99@cluster0.mongodb.net/test"',
    secrets: ['pa55word99'],
    kind: 'url-password',
  },
  { name: 'password in a mysql URL', text: 'mysql://root:hunter22@localhost/shop', secrets: ['hunter22'], kind: 'url-password' },
  {
    name: 'password in a redis URL without user name',
    text: 'REDIS_URL=redis://:supersecretredis@localhost:6379/0',
    secrets: ['supersecretredis'],
    kind: 'url-password',
  },
  { name: 'PASSWORD=…', text: 'PASSWORD=hunter2hunter2', secrets: ['hunter2hunter2'], kind: 'secret', expected: 'PASSWORD=[REDACTED:secret]' },
  { name: '"api_key": "…" in JSON', text: `{"name": "svc", "api_key": "${apiKeyHex}", "region": "eu"}`, secrets: [apiKeyHex], kind: 'secret' },
  {
    name: '.env file with a database password',
    text: 'DB_HOST=localhost\nDB_PASSWORD=hunter2hunter2\nDB_USER=app',
    secrets: ['hunter2hunter2'],
    kind: 'secret',
    expected: 'DB_HOST=localhost\nDB_PASSWORD=[REDACTED:secret]\nDB_USER=app',
  },
  { name: 'client_secret in YAML', text: `oauth:\n  client_id: my-app\n  client_secret: ${clientSecret}\n`, secrets: [clientSecret], kind: 'secret' },
  { name: '--password=… on a command line', text: 'psql --host=db --password=hunter2hunter2 app', secrets: ['hunter2hunter2'], kind: 'secret' },
  { name: 'quoted passphrase with spaces', text: "password: 'correct horse battery staple'", secrets: ['horse battery staple'], kind: 'secret' },
  {
    name: 'Bearer token in an Authorization header',
    text: `curl -H "Authorization: Bearer ${opaque}" https://api.example.com/v1/me`,
    secrets: [opaque],
    kind: undefined,
  },
  { name: 'api_key in a URL query string', text: `GET https://api.example.com/v1/items?api_key=${opaque}&page=2`, secrets: [opaque], kind: undefined },
  { name: 'Django/Flask SECRET_KEY', text: `SECRET_KEY=${djangoKey}`, secrets: [djangoKey], kind: 'secret' },
  // Seen through a tool: an .env file read (line numbers) or searched (path:line:), as users do.
  {
    name: '.env lines seen through Read',
    text: '     1→DB_PASSWORD=sunshine\n     2→SECRET_KEY=correcthorsebatterystaple\n     3→API_TOKEN=swordfish\n',
    secrets: ['sunshine', 'correcthorsebatterystaple', 'swordfish'],
    kind: 'secret',
  },
  {
    name: '.env lines seen through Grep',
    text: '/app/.env:1:DB_PASSWORD=sunshine\n/app/.env:2:SECRET_KEY=correcthorsebatterystaple\nconfig/.env.local:API_TOKEN=swordfish\n',
    secrets: ['sunshine', 'correcthorsebatterystaple', 'swordfish'],
    kind: 'secret',
  },
  { name: '.env line through cat -n', text: '     4\tSTRIPE_SECRET=hunter2hunter2\n', secrets: ['hunter2hunter2'], kind: 'secret' },
  { name: 'a PASS variable, quoted', text: 'DB_PASS="Qu0tedPassVal"', secrets: ['Qu0tedPassVal'], kind: 'secret' },
  { name: 'a _PWD variable', text: 'export MYSQL_PWD=letmein99', secrets: ['letmein99'], kind: 'secret' },
  { name: 'Hugging Face token', text: `HF hub login with ${cat('hf_', rnd(34, 41))} done`, secrets: [cat('hf_', rnd(34, 41))], kind: 'huggingface-token' },
  { name: 'mysql password glued to -p', text: 'mysql -u root -pMysqlInl1nePw app_db < dump.sql', secrets: ['MysqlInl1nePw'], kind: 'password' },
  { name: 'a --password flag with a space', text: 'psql --host db --password FlagPassw0rd55 -c "select 1"', secrets: ['FlagPassw0rd55'], kind: 'secret' },
  { name: 'a --token= flag', text: 'deploy --token=tok9f8a7b6c5d --env prod', secrets: ['tok9f8a7b6c5d'], kind: 'secret' },
  {
    name: 'mysql by its path, in a quoted shell command',
    text: "docker exec db sh -c '/usr/bin/mysql -uroot -pMy5ecretPw shop'",
    secrets: ['My5ecretPw'],
    kind: 'password',
  },
  {
    name: 'sshpass, docker login and redis-cli passwords',
    text: 'sshpass -p S5hpassPw ssh host\ndocker login -u me -p Dh0ckerPw99 registry.example.com\nredis-cli -h cache -a R3disS3cret ping',
    secrets: ['S5hpassPw', 'Dh0ckerPw99', 'R3disS3cret'],
    kind: 'password',
  },
  {
    name: 'a password flag with a word for a value',
    text: 'mysql --password=hunter2 && wget --password=hunter2 x && redis-cli --pass hunter2',
    secrets: ['hunter2'],
    kind: 'secret',
  },
  {
    name: 'environment variables set on a command line',
    text: 'docker run -e POSTGRES_PASSWORD=hunter2 -d postgres:16\ncd /srv && PGPASSWORD=hunter3 psql -h db',
    secrets: ['hunter2', 'hunter3'],
    kind: 'secret',
  },
  {
    name: 'an .npmrc auth line',
    text: '//registry.example.com/:_authToken=npmAuthTok3nValue99\n_auth=dXNlcjpwYXNzd29yZDE=',
    secrets: ['npmAuthTok3nValue99', 'dXNlcjpwYXNzd29yZDE='],
    kind: 'secret',
  },
  {
    name: "docker's config.json auth",
    text: '{"auths": {"registry.example.com": {"auth": "Ym90OmJvdHBhc3N3b3JkOTk="}}}',
    secrets: ['Ym90OmJvdHBhc3N3b3JkOTk='],
    kind: 'secret',
  },
  {
    name: 'an Azure storage connection string',
    text: 'DefaultEndpointsProtocol=https;AccountName=app;AccountKey=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA==;EndpointSuffix=core.windows.net',
    secrets: ['Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA=='],
    kind: 'secret',
  },
  { name: 'a .netrc entry', text: 'machine api.example.com login bot password NetrcPw0rd77', secrets: ['NetrcPw0rd77'], kind: 'password' },
  { name: 'a Dockerfile ENV without =', text: 'FROM node:20\nENV DB_PASSWORD dockerPw2024\nARG NPM_TOKEN\n', secrets: ['dockerPw2024'], kind: 'secret' },
  {
    name: 'keytool, openssl, zip and ssh-keygen passwords',
    text: "keytool -genkey -storepass Ks7orePass -keypass K3yPass1\nopenssl pkcs12 -export -passout pass:P12Export99 -out a.p12\nzip -P ZipPass99 out.zip a.txt\nssh-keygen -t ed25519 -N 'KeyPassphrase1' -f k",
    secrets: ['Ks7orePass', 'K3yPass1', 'P12Export99', 'ZipPass99', 'KeyPassphrase1'],
    kind: 'password',
  },
  {
    name: 'a quoted secret with spaces on an .env line',
    text: 'JWT_SECRET="s0me long secret value"',
    secrets: ['s0me long secret value', 'long secret value'],
    kind: 'secret',
  },
  {
    name: 'an environment variable whose name has a digit before PASSWORD',
    text: 'cd db && DB2PASSWORD=hunter2 ./migrate',
    secrets: ['hunter2'],
    kind: 'secret',
  },
  {
    name: 'a compose environment map',
    text: 'services:\n  db:\n    environment:\n      MYSQL_ROOT_PASSWORD: rootpass\n',
    secrets: ['rootpass'],
    kind: 'secret',
  },
  {
    name: 'kubectl, helm and terraform secrets',
    text: 'kubectl create secret generic db --from-literal=password=correcthorse\nhelm install pg bitnami/postgresql --set auth.password=hunter2,auth.database=app\nterraform apply -var db_password=hunter4',
    secrets: ['correcthorse', 'hunter2', 'hunter4'],
    kind: 'secret',
  },
  { name: 'a libpq connection string', text: 'psql "host=db user=app password=hunter2 dbname=app"', secrets: ['hunter2'], kind: 'password' },
  {
    name: 'Basic and lower-case token authorization headers',
    text: 'curl -H "Authorization: Basic YWRtaW46aHVudGVyMg==" -H "Authorization: token 0123456789abcdef0123" x',
    secrets: ['YWRtaW46aHVudGVyMg==', '0123456789abcdef0123'],
    kind: undefined,
  },
  {
    name: 'a bearer token in lower case',
    text: 'git -c http.extraheader="AUTHORIZATION: bearer abcdefghijklmnop1234" fetch',
    secrets: ['abcdefghijklmnop1234'],
    kind: 'bearer-token',
  },
  { name: 'mysql password quoted after -p', text: "mysql -u root -p'S3cr3tPw!' shop", secrets: ['S3cr3tPw!'], kind: 'password' },
  { name: 'mysql password as the first option', text: 'mysql -pS3cr3tPw db', secrets: ['S3cr3tPw'], kind: 'password' },
  { name: 'mariadb password after -p', text: 'mariadb -uroot -pMaria99pw shop', secrets: ['Maria99pw'], kind: 'password' },
  { name: 'curl basic auth', text: 'curl -u admin:Curl3dPw https://example.org/api', secrets: ['Curl3dPw'], kind: 'password' },
  {
    name: 'a quoted flag value with spaces',
    text: 'cli --token "S3cr3t Pw with space" --verbose',
    secrets: ['S3cr3t Pw with space', 'Pw with space'],
    kind: 'secret',
  },
  {
    name: 'Slack and Discord webhook URLs',
    text: `curl -X POST ${slackHook} -d @msg.json\nWEBHOOK=${discordHook}`,
    secrets: [slackHook.slice(-24), discordHook.slice(-40)],
    kind: 'webhook-url',
  },
  { name: 'a legacy Vault token (s.…)', text: `vault login ${vaultLegacy}`, secrets: [vaultLegacy.slice(2)], kind: 'vault-token' },
  {
    name: 'passwords piped to a command that reads stdin',
    text: "echo 'S3cretPw!' | docker login -u bot --password-stdin ghcr.io\necho \"hunter22\" | sudo -S apt-get install -y jq\nprintf '%s\\n' 'Pw0rd-xyz' | passwd --stdin deploy\necho \"deploy:N3wPass\" | chpasswd",
    secrets: ['S3cretPw!', 'hunter22', 'Pw0rd-xyz', 'N3wPass'],
    kind: 'password',
  },
  {
    name: 'gh secret set with --body or -b',
    text: 'gh secret set NPM_TOKEN --body "abc123def456ghi"\ngh secret set DB_PASSWORD -b hunter2222 --repo acme/api',
    secrets: ['abc123def456ghi', 'hunter2222'],
    kind: 'secret',
  },
  {
    name: 'a setter called with a token literal (Go options, SDK clients)',
    text: 'opts := option.WithToken("ya29.A0ARrdaM-Kp2x9Qq")\nclient.SetPassword("Xy7-pq9-Lm2")',
    secrets: ['ya29.A0ARrdaM-Kp2x9Qq', 'Xy7-pq9-Lm2'],
    kind: 'secret',
  },
  {
    name: "an XML element named for a secret (Maven's settings.xml)",
    text: '<server>\n  <id>nexus</id>\n  <username>ci</username>\n  <password>N3xusPw!</password>\n</server>',
    secrets: ['N3xusPw!'],
    kind: 'secret',
  },
  {
    name: 'stdin passwords behind a line prefix, after sudo options with values, quoted with & or ;',
    text: "    12→echo 'Hunter2Blue' | docker login -u bob --password-stdin\necho 'Hunter3Blue' | sudo -u postgres -S psql\necho 'P@ss&w0rd1' | sudo -S apt update\necho 'Tr0ub4dor;3' | docker login -u x --password-stdin",
    secrets: ['Hunter2Blue', 'Hunter3Blue', 'P@ss&w0rd1', 'Tr0ub4dor;3'],
    kind: 'password',
  },
  {
    name: 'webhook, Vault and npm variants: a versioned Discord path, a token before a dot, a quoted npm key',
    text: `${discordHook.replace('/api/', '/api/v10/')}\nUse the token ${vaultLegacy}.\nnpm config set "//registry.npmjs.org/:_authToken" "0123abcd-4567-89ab-cdef-0123456789ab"\nnpm config set -g //r.example.com/:_authToken 0123abcd456789abcdef`,
    secrets: [discordHook.slice(-40), vaultLegacy.slice(2), '0123abcd-4567-89ab-cdef-0123456789ab', '0123abcd456789abcdef'],
    kind: undefined,
  },
  {
    name: "Go DSN passwords holding @ or :, and the driver's user:pass@/db form",
    text: 'app:p@ssw0rd@tcp(localhost:3306)/app\napp:Hunter2:Blue@tcp(db:3306)/app\nroot:Hunter4Blue@/app?charset=utf8',
    secrets: ['p@ssw0rd', 'Hunter2:Blue', 'Hunter4Blue'],
    kind: 'url-password',
  },
  {
    name: 'a .netrc entry over several lines, read through a tool or without indentation',
    text: '     1→machine api.example.com\n     2→  login bob\n     3→  password Hunter2Blue\nmachine git.example.org\nlogin ann\npassword Hunter5Blue',
    secrets: ['Hunter2Blue', 'Hunter5Blue'],
    kind: 'password',
  },
  {
    name: 'an XML value on the line after its tag, or its close on the next line (pretty-printed settings, a Write of one)',
    text: '<server>\n  <password>\n      Qx7vLp2mZr9tWk4s\n  </password>\n</server>\n<password>Hunter3Blue\n</password>\n<apiKey>\n  sk_abcDEF123456ghiJKL789\n</apiKey>',
    secrets: ['Qx7vLp2mZr9tWk4s', 'Hunter3Blue', 'sk_abcDEF123456ghiJKL789'],
    kind: 'secret',
  },
  {
    name: 'an XML element named for a secret key',
    text: '<secretKey>wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY</secretKey>\n<aws_secret_key>wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEZ</aws_secret_key>',
    secrets: ['wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEZ'],
    kind: 'secret',
  },
  {
    name: 'XML elements with attributes, a space before >, a storepass',
    text: '<wsse:Password Type="http://docs.oasis-open.org/wss#PasswordText">Hunter2Blue</wsse:Password>\n<password>Hunter3Blue</password >\n<storepass>Hunter4Blue9</storepass>',
    secrets: ['Hunter2Blue', 'Hunter3Blue', 'Hunter4Blue9'],
    kind: 'secret',
  },
  {
    name: 'WordPress salts aligned with spaces, values with $, a Ruby symbol subscript',
    text: "define( 'AUTH_KEY',         'aB3dE5gH7jK9mN1pQ3rS5' );\ndefine('DB_PASSWORD', 'Hunter$2Blue');\nsettings[:password] = \"Hunter6Blue\"",
    secrets: ['aB3dE5gH7jK9mN1pQ3rS5', 'Hunter$2Blue', 'Hunter6Blue'],
    kind: 'secret',
  },
  {
    name: 'a colon after the name in prose, setters named with an acronym or ending in Key',
    text: 'API Key: 8a7b6c5d4e3f2a1b0c9d\nthe new password is: Hunter2Blue\nWithAPIToken("9a7b6c5d4e3f2a1b0c9d")\nWithSecretKey("7a7b6c5d4e3f2a1b0c9d")',
    secrets: ['8a7b6c5d4e3f2a1b0c9d', 'Hunter2Blue', '9a7b6c5d4e3f2a1b0c9d', '7a7b6c5d4e3f2a1b0c9d'],
    kind: 'secret',
  },
  {
    name: '.pgpass lines, also read through a tool',
    text: 'db.example.com:5432:app:app:PgPassFile9\n*:*:*:postgres:Sup3rPw\n     1→localhost:5432:mydb:me:Hunter7Blue',
    secrets: ['PgPassFile9', 'Sup3rPw', 'Hunter7Blue'],
    kind: 'password',
  },
  {
    name: 'PHP define() and subscript assignments of a named secret',
    text: "define('DB_PASSWORD', 'wpPass2024');\nos.environ[\"DB_PASSWORD\"] = \"localPw99\"\nENV['API_KEY'] = 'k-123456789'",
    secrets: ['wpPass2024', 'localPw99', 'k-123456789'],
    kind: 'secret',
  },
  {
    name: 'name/value pairs named for a secret: Kubernetes and Compose YAML, ECS JSON, Terraform',
    text: '        env:\n          - name: DB_PASSWORD\n            value: "Xk9mQ2vL8pR"\n          - key: SECRET_KEY\n            value: abcDEF123456\n{"name": "API_KEY", "value": "a8f3k2m9x7q1w5e6"}\n  { name = "DB_PASSWORD", value = "tfS3cret" }',
    secrets: ['Xk9mQ2vL8pR', 'abcDEF123456', 'a8f3k2m9x7q1w5e6', 'tfS3cret'],
    kind: 'secret',
  },
  {
    name: 'a name/value pair pretty-printed, as kubectl -o json and the AWS CLI print it',
    text: '        "environment": [\n            {\n                "name": "DB_PASSWORD",\n                "value": "Xk29vLmq77"\n            }\n        ]',
    secrets: ['Xk29vLmq77'],
    kind: 'secret',
  },
  {
    name: 'a short password at the end of a YAML line, Go and Makefile assignments, SetEnvironmentVariable',
    text: 'password: hunter2\n  db_password: S3cret!  # prod\napiKey := "k9f8e7d6c5"\nTOKEN ?= Tk0987654321ab\n[System.Environment]::SetEnvironmentVariable("API_KEY", "winKey12345")',
    secrets: ['hunter2', 'S3cret!', 'k9f8e7d6c5', 'Tk0987654321ab', 'winKey12345'],
    kind: 'secret',
  },
  {
    name: 'a password or token named in prose right before its value',
    text: 'login with password Qz4Nf8TkW1pRx6Ja please\nDecided: use password Dc7Hq2ZpL9wXy4Rt for the staging db.\nthen pass token 4f9a8b7c6d5e4f3a to the CLI',
    secrets: ['Qz4Nf8TkW1pRx6Ja', 'Dc7Hq2ZpL9wXy4Rt', '4f9a8b7c6d5e4f3a'],
    kind: 'secret',
  },
  { name: 'a SendGrid key', text: `sendgrid key ${sendgridKey} in prose`, secrets: [sendgridKey], kind: 'sendgrid-key' },
  {
    name: 'heredocs fed to a command that reads a password from stdin',
    text: "docker login -u bob --password-stdin <<EOF\nHdS3cr3tV4lu3Xy9Zq2W\nEOF\ncat <<'EOF' | vault login -\nVaultPw123x\nEOF\nsudo chpasswd <<END\nalice:Pw1234abc\nbob:Xy9876zz\nEND",
    secrets: ['HdS3cr3tV4lu3Xy9Zq2W', 'VaultPw123x', 'Pw1234abc', 'Xy9876zz'],
    kind: 'password',
  },
  {
    name: 'two curl -u or --user passwords on one line',
    text: 'Use curl -u admin:Cu1stPw7788 https://a.example.com or curl -u admin:Cu2ndPw9911 https://b.example.com.\ncurl --user admin:Cu3rdPw1234 https://a.example.com; curl --user=admin:Cu4thPw5678 https://b.example.com',
    secrets: ['Cu1stPw7788', 'Cu2ndPw9911', 'Cu3rdPw1234', 'Cu4thPw5678'],
    kind: 'password',
    expected:
      'Use curl -u admin:[REDACTED:password] https://a.example.com or curl -u admin:[REDACTED:password] https://b.example.com.\ncurl --user admin:[REDACTED:password] https://a.example.com; curl --user=admin:[REDACTED:password] https://b.example.com',
  },
  {
    name: 'two mysql passwords on one line',
    text: 'run mysql -pFirst1Pw db or mysql -u app -pSecond2Pw db',
    secrets: ['First1Pw', 'Second2Pw'],
    kind: 'password',
  },
  {
    name: 'a command assigned on an .env line: curl -u, mysql -p, a password piped to --password-stdin',
    text: 'HEALTHCHECK=curl -u admin:Hc9xQ2mP7wLt https://x.example.com\nDB_CLI=mysql -u root -pMy5qlPw9Kx21 app\nLOGIN_CMD=echo "Pipe7Sec8Ret9" | docker login --password-stdin\nexport REG_LOGIN=docker login -u me -p Dk9Pw88xQ r.example.com',
    secrets: ['Hc9xQ2mP7wLt', 'My5qlPw9Kx21', 'Pipe7Sec8Ret9', 'Dk9Pw88xQ'],
    kind: 'password',
    expected:
      'HEALTHCHECK=curl -u admin:[REDACTED:password] https://x.example.com\nDB_CLI=mysql -u root -p[REDACTED:password] app\nLOGIN_CMD=echo "[REDACTED:password]" | docker login --password-stdin\nexport REG_LOGIN=docker login -u me -p [REDACTED:password] r.example.com',
  },
  {
    name: "an .env file's assigned commands seen through Read, cat -n and Grep, quoted, or by their path",
    text: '     3→HEALTHCHECK=curl -u admin:Hc9xQ2mP7wLt https://x.example.com\n     4\tDB_CLI=mysql -u root -pMy5qlPw9Kx21 app\n/app/.env:5:LOGIN_CMD=echo "Pipe7Sec8Ret9" | docker login --password-stdin\nLOGIN_CMD="echo \'Quo7edPw55\' | docker login --password-stdin"\nExecStart=/usr/bin/redis-cli -a R3disPw9x ping',
    secrets: ['Hc9xQ2mP7wLt', 'My5qlPw9Kx21', 'Pipe7Sec8Ret9', 'Quo7edPw55', 'R3disPw9x'],
    kind: 'password',
  },
  {
    name: 'Slack app-level and refresh tokens',
    text: `SLACK_APP_TOKEN=${slackApp}\nrefresh: ${slackRefresh}`,
    secrets: [slackApp, slackRefresh],
    kind: 'slack-token',
  },
  {
    name: 'Stripe and Svix webhook signing secrets',
    text: `STRIPE_WEBHOOK_SECRET=${stripeWebhook}\nconst wh = new Webhook("${svixWebhook}");`,
    secrets: [stripeWebhook, svixWebhook],
    kind: 'webhook-secret',
  },
  {
    name: 'a SendGrid key in an env line, in JSON and after a colon',
    text: `SENDGRID_API_KEY=${sendgridKey}\n{"key":"${sendgridKey}"}\nkey:${sendgridKey}.`,
    secrets: [sendgridKey],
    kind: 'sendgrid-key',
  },
  {
    name: 'a bare AWS secret key near its access key id or the word aws',
    text: `Access key ID,Secret access key\n${awsAccess},${awsBare}\nAWS Secret Access Key [None]: ${awsBare}\nhere are the aws creds: ${awsAccess} ${awsBare}\n${awsBare} is the key for the AWS account`,
    secrets: [awsBare],
    kind: 'aws-secret-key',
  },
  {
    name: 'a session id in a Set-Cookie header and in a Cookie header',
    text: `Set-Cookie: sessionid=${sessionCookie}; Path=/; HttpOnly\n< set-cookie: __Host-sid=s%3A${sessionCookie}.Sig9x; Secure\ncurl -H "Cookie: theme=dark; session=${sessionCookie}; lang=en" https://x`,
    secrets: [sessionCookie],
    kind: 'cookie',
  },
];

const npmIntegrity = 'sha512-Gx7Ai6T3zT1hpFfL6rKvmLm+Vuc0nHv1Yc4bC3Rz1NmWQq8EJFkLu7q1k3VbD8FyGUb2v0LlYbZkwEGo/fF7aQ==';

const NEGATIVES: Array<[string, string]> = [
  [
    'heredocs fed to formatters and git (--stdin-file-path, --stdin), sudo running a command whose flag ends in S',
    "npx biome format --stdin-file-path=src/app.ts <<'EOF'\nexport function add(a: number, b: number) { return a + b }\nEOF\nnpx prettier --stdin-filepath x.ts <<EOF\nconst x = 1\nEOF\ngit hash-object -w --stdin <<EOF\nhello world\nEOF\nsudo ls -lS /var/log <<EOF\nfoo bar baz\nEOF\necho 'hello there' | git hash-object --stdin",
  ],
  [
    'Terraform name/value pairs whose value is a reference, and values that are words',
    'set {\n  name  = "auth.password"\n  value = var.db_password\n}\nset_sensitive {\n  name  = "auth.rootPassword"\n  value = random_password.root.result\n}\n{ name = "DB_PASSWORD", value = aws_db_instance.main.password },\n- name: SECRET_BACKEND\n  value: vault\n- name: JWT_SECRET_ALGO\n  value: "HS256"',
  ],
  [
    'Kubernetes secret names, CVE ids and model names after "secret" or "token" in prose',
    'kubectl get secret db-creds-v2 -o yaml\nkubectl describe secret default-token-x7k2p\nkubectl delete secret regcred-2024\nthe CSRF token CVE-2023-45857 was fixed\ncount cost per token gpt-4o-2024-08-06',
  ],
  [
    'a password assigned a pointer, an address, an SQL variable or an issue key',
    '\tpassword := *passwordFlag\n\tpassword := &cfg.Password\npassword = @password\nFix reset password: GH-1234',
  ],
  [
    'a password heredoc holding a variable, a heredoc fed to no password reader, secrets and tokens in prose without a value',
    'docker login --password-stdin <<EOF\n$DOCKER_PASS\nEOF\ncat <<EOF > config.yml\nname: app\nEOF\ntoken count 4096\nthe secret ES256-signed\nuse token secret_v2_name here\nmax token limit 128000',
  ],
  ['git SHA', 'commit 3f786850e387550fdab836ed7e6dc881de23001b\nAuthor: Jane <jane@example.com>'],
  ['short SHAs in a log', 'a1b2c3d fix token refresh race\n9e8f7a6 bump version'],
  ['sha256 sum', '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08  dist/cli.mjs'],
  ['sha256 in JSON', '{"sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "bytes": 10477}'],
  ['uuid', 'session 8d9c3c1e-4b5a-4f0e-9a51-2f6e0b7c1d23 started'],
  ['sessionId field', '{"sessionId": "e9274768-9792-47d1-a2a9-b71b858d4e3b", "version": "2.1.332"}'],
  ['base64 PNG data URL', 'src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="'],
  [
    'base64 JPEG image block',
    '{"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwg"}}',
  ],
  ['token from a function call', 'const token = getToken()'],
  ['password from the environment', 'password: process.env.DB_PASSWORD'],
  ['tokenizer', 'const tokenizer = new Tokenizer(vocab)'],
  ['apiKey from config', 'apiKey: config.apiKey'],
  ['CSS hex colours', '.btn { color: #ff00aa; background-color: #1e1e1e; border: 1px solid #abcdef; }'],
  ['npm integrity string', `"integrity": "${npmIntegrity}"`],
  ['prose about a secret', 'The secret to reliable tests is keeping them independent.'],
  ['prose about tokens and secrets', 'Never commit a secret or a token to the repository; use the vault instead.'],
  ['prose with “the secret:”', "Here's the secret: consistent naming matters."],
  ['max_tokens', 'max_tokens: 4096'],
  ['usage block', '"usage": {"input_tokens": 12455, "cache_read_input_tokens": 0, "output_tokens": 20}'],
  ['password hash', 'password_hash = bcrypt.hashpw(password.encode(), salt)'],
  ['author', 'author: Margaret Hamilton'],
  ['placeholder', 'API_KEY=<your-api-key>'],
  ['shell variable', 'PASSWORD=${DB_PASSWORD}'],
  ['os.environ', 'token = os.environ["GITHUB_TOKEN"]'],
  ['masked xxx', 'api_key: xxxxxxxxxxxxxxxx'],
  ['masked stars', 'password: ********'],
  ['GitHub Actions secret reference', 'token: ${{ secrets.GITHUB_TOKEN }}'],
  ['TypeScript interface', 'interface Credentials { username: string; password: string }'],
  ['Python type hints', 'def login(username: str, password: Optional[str] = None):'],
  ['hook from a call', 'const auth = useAuth();'],
  ['PWD in env output', 'HOME=/home/user\nPWD=/home/user/project\nSHELL=/bin/bash'],
  ['ssh public key', 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQC7vbqajDhA user@host'],
  ['PEM public key', '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo\n-----END PUBLIC KEY-----'],
  ['destructured token', 'const { token } = await login(user)'],
  ['Anthropic ids', 'msg_01XFDUDYJgAACzvnptvVoYEL toolu_01A09q90qw90lq917835lq9 req_011CVeZ6'],
  ['AWS ARN', 'arn:aws:iam::123456789012:role/deploy'],
  ['password field lookup', "const passwordInput = document.querySelector('#password')"],
  ['k8s secret name', 'secretName: app-secrets'],
  ['error about a missing token', "if (!token) throw new Error('missing token')"],
  ['token count', 'tokens = tokenizer.encode(text)'],
  ['bypass and compass', 'bypass=true\ncompass: north-north-west'],
  ['jest PASS line and TAP pass count', 'PASS src/app.test.ts\n# pass 12\n# fail 0'],
  ['passWithNoTests flag', 'vitest run --passWithNoTests'],
  ['mysql prompting for the password', 'mysql -u root -p app_db'],
  ['password file flag', 'docker login --password-stdin && app --password-file /run/secrets/db'],
  ['Grep of code that reads a password', 'src/db.ts:12:const password = process.env.DB_PASSWORD;\nsrc/db.ts:13:connect({ password });'],
  ['Read of code with a type', '    7→  password: string;\n    8→  token?: string;'],
  ['keyword arguments read through a tool', '    41→        host=host,\n    42→        password=password,\nsrc/client.py:42:        api_key=api_key,'],
  ['plain keyword arguments', 'conn = connect(\n    password=password,\n    token=token,\n)'],
  ['mysql in a path, then -pthread', 'gcc -o app app.c -I/usr/include/mysql -pthread -lmysqlclient'],
  ['find in a mysql folder', "find /var/lib/mysql -path '*/tmp' -prune"],
  ['a mysql container port', 'docker run --name some-mysql -p3306:3306 -d mysql:8'],
  ['tar after a mysql path', 'sudo cp -r /etc/mysql /backup && tar -pczf mysql.tgz /backup'],
  [
    'flags named after tokens or passwords that take no secret',
    'python train.py --token-limit 4096 --max-token 4096 && docker login --password-stdin myregistry.azurecr.io',
  ],
  ['docker build secret spec', 'docker build --secret id=npmrc,src=.npmrc .'],
  ['pytest pass-through flag', 'uv run pytest --pass-through verbose'],
  [
    'flags in help text and commands that take no secret',
    'gh auth refresh --reset-token myhost\ngit credential fill --token stdin\n      --api-key value    the API key [$API_KEY]\npg_dump --no-password mydb',
  ],
  [
    'variables and placeholders on command lines',
    'mysql -h db -u root -p"$DB_PASS" shop\ncurl -u "$USER:$PASS" https://api\ncurl -u user:<password> https://api\napp --token $TOKEN',
  ],
  ['a mysql data folder in a find', "find /var/lib/mysql -path '*/tmp' -prune -o -perm 600 -print"],
  [
    'helm values that name secrets',
    'helm upgrade --install app ./chart --set ingress.tls.secretName=tls-cert --set image.pullSecret=regcred\nterraform plan -var "token_ttl=3600"',
  ],
  ['bearer in prose', 'Use bearer token-based-authentication-middleware for the API.'],
  ['a flag naming a secret', 'gcloud secrets versions access latest --secret=db-password'],
  [
    'config keys near these names',
    '"auth": "none",\n"authority": "https://login.example.com"\nmachine learning models need a password manager\nENV NODE_ENV production\nARG NPM_TOKEN',
  ],
  ['connection keyword arguments', 'conn = psycopg2.connect(host=host, user=user, password=password)'],
  ['masked and cut-short values', '  ✓ Token: gho_************************************\nSTRIPE_SECRET_KEY=sk_test_...\nexport ANTHROPIC_API_KEY=sk-ant-...'],
  [
    'paths, addresses and versions named after secrets',
    'export TOKEN_FILE=/var/run/secrets/kubernetes.io/serviceaccount/token\n      POSTGRES_PASSWORD_FILE: /run/secrets/db_password\ntoken_endpoint: https://auth.example.com/oauth/token\n"@types/jsonwebtoken": "^9.0.2",',
  ],
  [
    'a variable or the word itself as a URL password',
    'DATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/app\nDATABASE_URL=postgres://user:password@localhost:5432/mydb',
  ],
  ['a documented sshpass example', '$ sshpass -p secret ssh host   # from the docs'],
  ['constants in capitals', 'const MAX_TOKEN=4096;\nexport const DEFAULT_PASSWORD_LENGTH=16;'],
  [
    'variables piped to a stdin password, a key file to gh secret',
    'echo $GITHUB_TOKEN | docker login ghcr.io -u bot --password-stdin\necho "$PASS" | sudo -S true\ngh secret set DEPLOY_KEY < key.pem\necho hello | grep -c h',
  ],
  [
    'JSX children on their own lines: words, an expression',
    '<ForgotPassword>\n  Forgot your password?\n</ForgotPassword>\n<Token>\n  {token.symbol.toUpperCase()}\n</Token>',
  ],
  [
    'setters called with a variable or a word, XML placeholders and names',
    'c.WithToken(token)\nsession.SetPassword("password")\n<db.password>${DB_PASSWORD}</db.password>\n<secretName>my-tls</secretName>\n<token>string</token>',
  ],
  [
    'a password line near no .netrc host, prose describing a token, setters with names or paths, XML placeholders',
    '\tpassword support.\nmachine learning\n  password policy\ntype conn struct {\n\tmachine  string\n\tpassword []byte\n}\nthe token is base64-encoded\nThe token is ES256-signed.\nuseToken("refresh_token_v2")\nsetToken("token-1234")\nWithSecret("projects/my-proj/secrets/api-key/versions/1")\n<password>@db.password@</password>\n<Token>{token.symbol}</Token>\n<secret>enabled</secret>\n<token>identifier</token>\nimport Button from \'@/components/button\'',
  ],
  [
    'colon-separated positions and addresses that look like .pgpass lines',
    'src/app.ts:42:10:error:message\n2001:0db8:85a3:0000:0000:8a2e:0370:7334\n    `postmaster@[IPv6:2001:0db8:85a3:0000:0000:8a2e:0370:7334]`,\nnode:internal/modules:12:3:foo:bar',
  ],
  [
    'name/value pairs whose value is a reference, a type, a number, or whose name is no secret',
    '- name: API_TOKEN\n  value: $(TOKEN)\n- name: GITHUB_TOKEN\n  value: ${{ secrets.GITHUB_TOKEN }}\n{"name": "token", "value": "string"}\nname: auth-token-ttl\nvalue: 3600\n- name: POSTGRES_PASSWORD\n  valueFrom:\n    secretKeyRef: {name: pg, key: password}\n- name: LOG_LEVEL\n  value: debug',
  ],
  [
    'a password name assigned a variable, a member, a type or a word of prose',
    '        self.key_password = key_password\n        username, secret_password = user_pass\npassword: process.env.DB_PW\npassword: config.db.password\npassword: Password\nPassword: changed.\n    password: ENC(abc)\nx := compute()',
  ],
  [
    'define() of a call, a comparison with a subscript, a member named s.',
    'define(\'DB_PASSWORD\', getenv(\'DB_PASSWORD\'));\nif config["password"] == "admin": pass\nthis.s.LongPropertyNameThatIs24x = 1',
  ],
  [
    '.env lines assigning commands with no password: a prompt, variables, a flag alone, a pipe to no password reader',
    'DB_CLI=mysql -u root -p app\nDB_CLI2=mysql -u root -p"$DB_PASS" app\nHEALTHCHECK=curl -u "$USER:$PASS" https://x.example.com\nLOGIN_CMD=echo "$REGISTRY_TOKEN" | docker login --password-stdin\nCOUNT_CMD=echo "hello" | grep -c h\nCURL_OPTS=-u admin',
  ],
  ['a host named mysql mid-line before a published port', 'docker run -e DB_HOST=mysql -p3306:3306 app\nCFLAGS=-I/usr/include/mysql -pthread'],
  [
    '40-character values near aws that are no secret key: hex hashes, paths, longer runs, a uuid',
    `aws s3 cp ./a s3://bucket/ # 3f786850e387550fdab836ed7e6dc881de23001b\nAWS sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\naws s3 cp ./x s3://bucket/Reports2024/JanuaryData/Summary\naws: lib/Components/Button2/View/Group/Index9\naws image data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==\nAWS session 8d9c3c1e-4b5a-4f0e-9a51-2f6e0b7c1d23 "integrity": "${npmIntegrity}"`,
  ],
  ['a 40-character base64 value with no aws near it ("laws" is no aws)', `fixture ${awsBare} in a test, as the laws say`],
  [
    'cookies that hold no secret, and cookies in code',
    'Cookie: theme=dark; lang=en-US\nSet-Cookie: theme=dark; Path=/\nSet-Cookie: session=; Max-Age=0\ndocument.cookie = "theme=dark"\ncookie: name=value',
  ],
  ['the new prefixes in prose and code', 'const sg = SG.Client.send(msg)\nxapp-1 is the app-level prefix\nwhsec_ starts a signing secret'],
];

describe('redact: true secrets are removed with the right marker', () => {
  it('has a corpus of at least 25 secrets', () => {
    expect(POSITIVES.length).toBeGreaterThanOrEqual(25);
  });

  it.each(POSITIVES.map((p) => [p.name, p] as const))('%s', (_name, p) => {
    const r = redact(p.text);
    for (const secret of p.secrets) expect(r.text).not.toContain(secret);
    if (p.kind === undefined) expect(r.text).toMatch(/\[REDACTED:[a-z-]+\]/);
    else expect(r.text).toContain(`[REDACTED:${p.kind}]`);
    if (p.expected !== undefined) expect(r.text).toBe(p.expected);
    expect(r.count).toBeGreaterThanOrEqual(1);
    if (p.kind !== undefined) expect(r.kinds).toContain(p.kind);
    // Redacting again changes nothing.
    expect(redactText(r.text)).toBe(r.text);
  });
});

describe('redact: look-alikes survive unchanged', () => {
  it('has a corpus of at least 25 negatives', () => {
    expect(NEGATIVES.length).toBeGreaterThanOrEqual(25);
  });

  it.each(NEGATIVES)('%s', (_name, text) => {
    const r = redact(text);
    expect(r.text).toBe(text);
    expect(r.count).toBe(0);
    expect(r.kinds).toEqual([]);
  });

  it('keeps everything around a secret', () => {
    expect(redactText(`before ${ghp} after`)).toBe('before [REDACTED:github-token] after');
    expect(redactText('a\nPASSWORD=hunter2hunter2\nb')).toBe('a\nPASSWORD=[REDACTED:secret]\nb');
  });

  it('drops colour codes first, so one inside a token does not hide it', () => {
    const coloured = `\x1b[1m${ghp.slice(0, 10)}\x1b[0m${ghp.slice(10)}\x1b[0m`;
    expect(redactText(`token: ${coloured} ok`)).toBe('token: [REDACTED:github-token] ok');
    expect(redactText('\x1b[32m✓\x1b[39m 3 passed')).toBe('✓ 3 passed');
  });

  it('counts each secret once and names the kinds found', () => {
    const r = redact(`export GITHUB_TOKEN=${ghp}\nDB_PASSWORD=hunter2hunter2\nother=${ghp}`);
    expect(r.count).toBe(3);
    expect(r.kinds.sort()).toEqual(['github-token', 'secret']);
  });
});

describe('<private> regions', () => {
  it('removes a region and keeps what is around it', () => {
    const r = redact('keep this <private>my home address is 1 Main St</private> and this');
    expect(r.text).not.toContain('Main St');
    expect(r.text).not.toContain('<private>');
    expect(r.text.startsWith('keep this ')).toBe(true);
    expect(r.text.endsWith(' and this')).toBe(true);
  });

  it('removes several regions, across lines', () => {
    const text = 'a <private>one\ntwo</private> b <private>three</private> c';
    const out = stripPrivate(text);
    for (const w of ['one', 'two', 'three']) expect(out).not.toContain(w);
    expect(out).toMatch(/^a .* b .* c$/s);
  });

  it('hides everything after an unclosed tag', () => {
    const out = redactText('visible <private>hidden forever\nand more');
    expect(out).not.toContain('hidden');
    expect(out).not.toContain('more');
    expect(out.startsWith('visible ')).toBe(true);
  });

  it('leaves text without the tag alone', () => {
    expect(stripPrivate('nothing private here')).toBe('nothing private here');
  });

  it('matches the tag in any case, and a region ends only where its own close tag is', () => {
    expect(stripPrivate('a <PRIVATE>upper</Private> b')).toBe('a [PRIVATE] b');
    const nested = stripPrivate('a <private>x <private>inner</private> AFTER</private> b');
    expect(nested).toBe('a [PRIVATE] b');
    // A close tag before any open one: the text began inside a region (see the parts below).
    expect(stripPrivate('a </private> stray close, <private>gone</private> end')).toBe('[PRIVATE] stray close, [PRIVATE] end');
    expect(stripPrivate('<private>gone</private> then a stray </private> close')).toBe('[PRIVATE] then a stray </private> close');
    expect(stripPrivate('a <private>one <private>two</private> still hidden')).toBe('a [PRIVATE]');
  });
});

describe('redact: parts of a long output', () => {
  it('removes the second half of a private region cut in two at a part boundary', () => {
    const whole = `before <private>home address 1 Main St\nphone 0770 900 123</private> after`;
    const cut = whole.indexOf('phone');
    const [first, second] = [redactText(whole.slice(0, cut)), redactText(whole.slice(cut))];
    expect(first).toBe('before [PRIVATE]');
    expect(second).toBe('[PRIVATE] after');
    for (const w of ['Main St', '0770']) expect(first + second).not.toContain(w);
  });

  it('removes the second half of a private key cut in two at a part boundary', () => {
    const second = `${pemBody.slice(200)}\n-----END RSA ${'PRIVATE'} KEY-----\nbuild ok`;
    const r = redact(second);
    expect(r.text).toBe('[REDACTED:private-key]\nbuild ok');
    expect(r.kinds).toContain('private-key');
  });

  it('leaves a whole key to the ordinary rule and text after it intact', () => {
    expect(redact(`${rsaKey}\nnext line`).text).toBe('[REDACTED:private-key]\nnext line');
  });
});

describe('redact: the named-secret rules, line by line', () => {
  // They run only on lines that hold a secret-like name: a secret must be found wherever its line
  // sits, whatever the line endings, and lines around it must come out as they went in.
  it('finds a named secret on the first line, the last line, after a blank line and between CRLF lines', () => {
    const secret = 'password = "hunter2hunter2"';
    const out = '[REDACTED:secret]';
    expect(redactText(secret)).toBe(`password = "${out}"`);
    expect(redactText(`${secret}\nnext line`)).toBe(`password = "${out}"\nnext line`);
    expect(redactText(`first line\n\n${secret}`)).toBe(`first line\n\npassword = "${out}"`);
    expect(redactText(`a\r\n${secret}\r\nb`)).toBe(`a\r\npassword = "${out}"\r\nb`);
    expect(redactText(`x\u2028API_KEY=abcd1234efgh5678\ny`)).toBe(`x\u2028API_KEY=${out}\ny`);
  });

  it('redacts two named secrets on one line and on neighbouring lines, and counts each once', () => {
    const text = 'db_password: S3cr3tP4ssw0rd!, token=abcdef0123456789abcdef\nexport API_TOKEN=zyxw9876vuts5432\nplain words';
    const r = redact(text);
    expect(r.text).toBe('db_password: [REDACTED:secret], token=[REDACTED:secret]\nexport API_TOKEN=[REDACTED:secret]\nplain words');
    expect(r.count).toBe(3);
  });

  it('leaves a line that only names a secret (no value) and every other line untouched', () => {
    const text = 'const tokenizer = new Tokenizer();\nwe rotate the secret weekly\nconst secret = process.env.SECRET;\nnothing here';
    expect(redactText(text)).toBe(text);
  });
});

describe('redact: the one-pass hint scan', () => {
  it('finds exactly the hints includes() finds: in the corpus, at the ends, overlapping, and in random mixes of hints', () => {
    const texts = [...POSITIVES.map((p) => p.text), ...NEGATIVES.map(([, t]) => t), '', 'sk-ant-', 'xsk-', 'mysqlogin', '://http', '_password_auth'];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let n = 0; n < 3_000; n++) {
      let text = '';
      for (let i = 0; i < 6; i++) {
        const hint = HINTS[Math.floor(random() * HINTS.length)] as string;
        text += random() < 0.3 ? hint.slice(0, Math.max(1, Math.floor(random() * hint.length))) : hint;
        if (random() < 0.5) text += ' x'.slice(0, Math.floor(random() * 3));
      }
      texts.push(text);
    }
    for (const text of texts) expect([...hintsIn(text)].sort(), JSON.stringify(text)).toEqual(HINTS.filter((h) => text.includes(h)).sort());
  });
});

describe('redact: a gate runs only on a text that holds one of its words', () => {
  const corpus = [...POSITIVES.map((p) => p.text), ...NEGATIVES.map(([, t]) => t)];
  // Each text as written, in capitals, in lower case and with each line alone: a gate's words must
  // be in every text the gate matches, whatever its case (the look-up is on the text in lower case).
  // Flags and pairs whose secret name follows a `_` or sits deep in a longer name, beside the corpus.
  const shapes = [
    'mycli --db_pass hunter2blue',
    'tool --X_API_TOKEN=Zx81kQmw92LpAq7Rt0Vb',
    'run -my-org_secret s3cr3tValue9',
    'deploy --service-auth_key=abc123def456',
    '- name: SERVICE_DB_PASSWORD\n  value: Zx81kQmw92',
    '{"key": "stripe_secret", "value": "Zx81kQmw92LpAq7"}',
    '<db.storepass>hunter2blue</db.storepass>',
    'DB_CLI=/usr/bin/mysql -u root -phunter2',
  ];
  const texts = [...corpus, ...shapes].flatMap((t) => [t, t.toUpperCase(), t.toLowerCase(), ...t.split('\n')]);

  it('gates with words are most of the gates; a case-insensitive gate has its words in lower case', () => {
    const gates = new Set(RULES.flatMap((r) => (r.gate === undefined ? [] : [r.gate])));
    expect(GATE_WORDS.size).toBeGreaterThanOrEqual(gates.size - 1);
    for (const [gate, groups] of GATE_WORDS) {
      expect(gates.has(gate)).toBe(true);
      expect(groups.length).toBeGreaterThan(0);
      for (const words of groups) {
        expect(words.length).toBeGreaterThan(0);
        if (gate.ignoreCase) for (const w of words) expect(w).toBe(w.toLowerCase());
      }
    }
  });

  it('every text a gate matches holds a word of each of its groups', () => {
    let matched = 0;
    for (const [gate, groups] of GATE_WORDS) {
      for (const text of texts) {
        if (!gate.test(text)) continue;
        matched += 1;
        const hay = gate.ignoreCase ? text.toLowerCase() : text;
        for (const words of groups)
          expect(
            words.some((w) => hay.includes(w)),
            `${gate.source} ${JSON.stringify(words)} on ${JSON.stringify(text.slice(0, 200))}`,
          ).toBe(true);
      }
    }
    expect(matched).toBeGreaterThan(100);
  });

  it('a test run or a log full of "passed", "token" and "key" runs few gates and keeps its text', () => {
    const log = ' ✓ parses the api key header 12ms\n ✓ refreshes the token on 401 3ms\n Tests  133 passed (133)\n';
    expect(redactText(log)).toBe(log);
  });

  it('a secret behind a gate is still found once the text has its word in any case', () => {
    expect(redactText('Cookie: sid=Zx81kQmw92LpAq7Rt0Vb')).toBe('Cookie: [REDACTED:cookie]');
    expect(redactText('COOKIE: sid=Zx81kQmw92LpAq7Rt0Vb')).toBe('COOKIE: [REDACTED:cookie]');
    expect(redactText('mycli --Db-Password hunter2blue')).toBe('mycli --Db-Password [REDACTED:secret]');
  });
});

describe('redact: a short text redacted again is answered from memory', () => {
  it('gives the same answer, and a caller that changes its copy changes nothing for the next', () => {
    const text = `echo ${ghp} | gh auth login --with-token`;
    const first = redact(text);
    first.kinds.push('changed');
    first.text = 'changed';
    const second = redact(text);
    expect(second.text).toBe('echo [REDACTED:github-token] | gh auth login --with-token');
    expect(second.kinds).toEqual(['github-token']);
    expect(second.count).toBe(1);
  });

  it('holds long texts and many texts the same as short ones', () => {
    const long = `${'x'.repeat(10_000)} PASSWORD=hunter2hunter2`;
    expect(redactText(long)).toBe(`${'x'.repeat(10_000)} PASSWORD=[REDACTED:secret]`);
    for (let i = 0; i < 40; i++) expect(redactText(`API_TOKEN=${i}abcdefgh${i}`)).toBe('API_TOKEN=[REDACTED:secret]');
    expect(redactText(long)).toBe(`${'x'.repeat(10_000)} PASSWORD=[REDACTED:secret]`);
  });
});
