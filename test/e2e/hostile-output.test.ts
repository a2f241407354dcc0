/**
 * docs/security.md, promise 1: text a patient controls (their name, their SMS
 * body, a campaign name) never reaches the operator's terminal as control
 * sequences, neither in a table on a real pseudo-terminal (util-linux
 * `script`) nor as tab-separated output in a pipe; and --json output is JSON
 * that jq 1.6 reads even when a name holds a lone surrogate.
 */
import { msgctl as inProcess } from '../helpers/in-process.js';
import { describe, expect, it, beforeAll } from 'vitest';
import { execa } from 'execa';
import { useSandbox } from '../helpers/sandbox.js';
import { binPath, sandboxEnv } from '../helpers/cli.js';
import { staffWorld } from '../helpers/staff-world.js';
import { CLIENT_ID, startLogin } from '../helpers/login-harness.js';

const sandbox = useSandbox();

/**
 * Every class of dangerous character: OSC title + clipboard, CSI clear, C1 CSI, bidi, zero-width,
 * lone surrogate; and the invisible ones (issue 27): soft hyphen, U+206A–206F, tag characters
 * spelling a hidden word, variation selectors (also after a letter), fillers, grapheme joiner.
 */
const HOSTILE =
  'hi\u001b]0;TITLE\u0007\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J\u009b31m\u202eevil\u202c\u2066x\u2069\u200bz\u0000\u007f\ud800end' +
  'so\u00adft\u206a\u206f\u{E0001}\u{E0068}\u{E0069}\u{E007F}vs\ufe00a\ufe0f\u{E0100}\u3164\u2800\u115f\u1160\u034f\uffa0.';

/**
 * Any byte or character that must not come from data: C0 except \t \n \r, DEL, C1, bidi controls,
 * zero-width and other invisible format characters, tag characters, variation selectors, fillers.
 * A hand list, on purpose: not the sanitizer's own pattern.
 */
const FORBIDDEN =
  /[\u0000-\u0008\u000b-\u000c\u000e-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/u;
/** The CLI's own colours: SGR sequences only. */
const OWN_COLOUR = /\u001b\[[0-9;]*m/g;

let patientId: string;
let messageId: string;
let campaignId: string;
let staffToken: string;

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandbox.current.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${sandbox.current.credentials.api_key}`,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

beforeAll(async () => {
  const sb = sandbox.current.sb;
  const orgId = sandbox.current.credentials.organization_id;
  const clinic = sb.db.phoneNumbers.find((n) => n.orgId === orgId)!;
  const patient = await api('POST', '/patients', { first_name: HOSTILE, last_name: HOSTILE, phone: '+15555550199' });
  patientId = patient.id;
  // The patient texts the clinic: the body is theirs.
  const inbound = await fetch(new URL('/_sandbox/inbound', sandbox.current.origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from: '+15555550199', to: clinic.number, body: HOSTILE }),
  });
  expect(inbound.status).toBe(201);
  messageId = ((await inbound.json()) as { id: string }).id;
  const campaign = await api('POST', '/campaigns', { name: HOSTILE, body: 'Check-up time.' });
  campaignId = campaign.id;
  const added = await inProcess(['campaigns', 'recipients', 'add', campaignId, '--patient', patientId], { env: sandboxEnv(sandbox.current) });
  expect(added.exitCode, added.stderr).toBe(0);
  // A staff conversation whose message body is the hostile text, for `me messages`.
  const world = staffWorld(sandbox.current);
  const chat = world.addConversation([world.dana, world.sam]);
  world.addMessage(chat, world.sam, HOSTILE);
  staffToken = world.mintToken(world.dana, ['conversations:read', 'messages:read', 'messages.read']);
});

function commands(): { args: string[]; env: 'key' | 'staff' }[] {
  return [
    { args: ['patients', 'list'], env: 'key' },
    { args: ['patients', 'get', patientId], env: 'key' },
    { args: ['messages', 'list', '--patient', patientId], env: 'key' },
    { args: ['messages', 'get', messageId], env: 'key' },
    { args: ['conversations', 'list'], env: 'key' },
    { args: ['campaigns', 'get', campaignId], env: 'key' },
    { args: ['campaigns', 'recipients', 'list', campaignId], env: 'key' },
    { args: ['me', 'messages'], env: 'staff' },
    { args: ['api', 'GET', `/patients/${patientId}`], env: 'key' },
    { args: ['api', 'GET', '/patients', '--paginate'], env: 'key' },
  ];
}

function envFor(kind: 'key' | 'staff', extra: Record<string, string | undefined> = {}) {
  if (kind === 'key') return sandboxEnv(sandbox.current, extra);
  return sandboxEnv(sandbox.current, { MSGCTL_API_KEY: undefined, MSGCTL_TOKEN: staffToken, ...extra });
}

function stringsIn(value: unknown): unknown[] {
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [value];
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs msgctl on a real pseudo-terminal (util-linux script) and returns what the terminal received. */
async function onTerminal(args: string[], env: Record<string, string | undefined>) {
  const command = [process.execPath, binPath(), ...args].map(quote).join(' ');
  const r = await execa('script', ['-qec', `stty cols 160; ${command}`, '/dev/null'], {
    env: env as NodeJS.ProcessEnv,
    extendEnv: false,
    reject: false,
    timeout: 30_000,
    encoding: 'utf8',
  });
  return { output: String(r.stdout), exitCode: r.exitCode };
}

/**
 * The commands run on a real pseudo-terminal: one of each way out (a table, a record view, a
 * person's messages with a staff login, `msgctl api`). Every command's rendering is checked on a
 * terminal's streams in this process below; these prove the binary finds the terminal and writes
 * to it as that rendering says.
 */
const onRealTerminal = () => commands().filter(({ args }) => ['patients list', 'patients get', 'me messages', 'api GET'].includes(args.slice(0, 2).join(' ')) && !args.includes('--paginate'));

describe('no control sequence from data reaches a terminal', () => {
  it('tables on a pseudo-terminal, with NO_COLOR: no escape byte at all', async () => {
    expect(onRealTerminal()).toHaveLength(4);
    for (const { args, env } of onRealTerminal()) {
      const r = await onTerminal(args, envFor(env));
      expect(r.exitCode, `${args.join(' ')}: ${r.output}`).toBe(0);
      expect(r.output, args.join(' ')).not.toMatch(FORBIDDEN);
      expect(r.output, args.join(' ')).not.toMatch(/[\ud800-\udfff]/);
      // The text is still there, shown as visible escapes.
      if (args[1] === 'get') {
        expect(r.output).toContain('\\x1b]0;TITLE');
        expect(r.output).toContain('\\u202e');
      }
    }
  });

  it('every command on a terminal\'s streams, with NO_COLOR: no escape byte at all', async () => {
    for (const { args, env } of commands()) {
      const r = await inProcess(args, { env: envFor(env), tty: true, columns: 160 });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout + r.stderr, args.join(' ')).not.toMatch(FORBIDDEN);
      expect(r.stdout, args.join(' ')).not.toMatch(/[\ud800-\udfff]/);
    }
  });

  it('tables on a terminal, in colour: the only escapes are the CLI\'s own colours', async () => {
    // In this process, on a terminal's streams: the real pseudo-terminal above proves the way out.
    let coloured = 0;
    for (const { args, env } of commands()) {
      const r = await inProcess(args, { env: envFor(env, { NO_COLOR: undefined, FORCE_COLOR: undefined }), tty: true, columns: 160 });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      if (r.stdout.match(OWN_COLOUR)) coloured++;
      expect((r.stdout + r.stderr).replace(OWN_COLOUR, ''), args.join(' ')).not.toMatch(FORBIDDEN);
    }
    expect(coloured).toBeGreaterThan(0);
  });

  it('tab-separated output in a pipe carries visible escapes, never the raw characters', async () => {
    // `msgctl api` prints JSON, which stays exact in a pipe (docs/scripting.md).
    for (const { args, env } of commands().filter((c) => c.args[0] !== 'api')) {
      const r = await inProcess(args, { env: envFor(env) });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout, args.join(' ')).not.toMatch(FORBIDDEN);
      expect(r.stdout).not.toMatch(/[\ud800-\udfff]/);
      expect(r.stderr).not.toMatch(FORBIDDEN);
    }
  });

  it('an error message quoting the service shows its text escaped', async () => {
    // The service quotes the unknown id back in its detail.
    const r = await inProcess(['patients', 'get', `pat\u001b]0;X\u0007\u202e`], { env: envFor('key') });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).not.toMatch(FORBIDDEN);
  });

  it('the OAuth error text the browser brings back is shown escaped', async () => {
    const login = startLogin(['--insecure-storage'], sandboxEnv(sandbox.current, {
      MSGCTL_API_KEY: undefined,
      MSGCTL_CLIENT_ID: CLIENT_ID,
      MSGCTL_CLIENT_SECRET: sandbox.current.credentials.oauth_client_secret,
    }));
    const authorize = new URL(await login.url);
    const callback = new URL(authorize.searchParams.get('redirect_uri')!);
    callback.searchParams.set('state', authorize.searchParams.get('state')!);
    callback.searchParams.set('error', 'server_error');
    callback.searchParams.set('error_description', HOSTILE.replace('\ud800', ''));
    await fetch(callback);
    const result = await login.result;
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('\\x1b]0;TITLE');
    expect(result.stderr).not.toMatch(FORBIDDEN);
  });

  it('--json on a terminal: the same characters as \\u escapes, and the same values as piped --json', async () => {
    const lines = (text: string) => text.replace(/\r\n/g, '\n').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    for (const { args, env } of commands()) {
      const piped = await inProcess([...args, '--json'], { env: envFor(env) });
      expect(piped.exitCode, `${args.join(' ')}: ${piped.stderr}`).toBe(0);
      // Every command on a terminal's streams in this process…
      const tty = await inProcess([...args, '--json'], { env: envFor(env), tty: true, columns: 160 });
      expect(tty.stdout, args.join(' ')).not.toMatch(FORBIDDEN);
      expect(tty.stdout, args.join(' ')).not.toMatch(/[\ud800-\udfff]/u);
      expect(lines(tty.stdout), args.join(' ')).toEqual(lines(piped.stdout));
      // …and one of each way out on a real one.
      if (!onRealTerminal().some((c) => c.args === args || c.args.join(' ') === args.join(' '))) continue;
      const r = await onTerminal([...args, '--json'], envFor(env));
      expect(r.exitCode, `${args.join(' ')}: ${r.output}`).toBe(0);
      expect(r.output, args.join(' ')).not.toMatch(FORBIDDEN);
      expect(r.output, args.join(' ')).not.toMatch(/[\ud800-\udfff]/u);
      // script(1) turns LF into CRLF on the way out of the terminal (lines() reads both).
      expect(lines(r.output), args.join(' ')).toEqual(lines(piped.stdout));
    }
    // A problem the service sends back (quoting the id) is escaped the same way on a terminal's stderr.
    const failed = await onTerminal(['patients', 'get', `pat\u009b2J\u202e\u{E0041}`, '--json'], envFor('key'));
    expect(failed.exitCode).not.toBe(0);
    expect(failed.output).toContain('"code"');
    expect(failed.output).not.toMatch(FORBIDDEN);
  });

  it('--json is exact JSON that jq 1.6 reads, even with a lone surrogate in a name', async () => {
    for (const args of [['patients', 'list'], ['patients', 'get', patientId], ['messages', 'list', '--patient', patientId], ['campaigns', 'recipients', 'list', campaignId]]) {
      const r = await inProcess([...args, '--json'], { env: envFor('key') });
      expect(r.exitCode, r.stderr).toBe(0);
      const jq = await execa('jq', ['-c', '.'], { input: r.stdout, reject: false });
      expect(jq.exitCode, `${args.join(' ')}: ${jq.stderr}`).toBe(0);
      // JSON keeps every other character exactly (escaped by JSON itself).
      const texts = r.stdout.split('\n').filter(Boolean).flatMap((l) => stringsIn(JSON.parse(l)));
      const kept = HOSTILE.replace('\ud800', '\ufffd');
      expect(texts.some((t) => typeof t === 'string' && t.includes(kept)), args.join(' ')).toBe(true);
    }
  });
});
