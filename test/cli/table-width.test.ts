/**
 * Tables fit the terminal (product.md §2): at 80 and 120 columns every line of
 * every list table fits, low-value columns go first, a message body stays
 * readable, and --wide brings every column back. Times read the same in every
 * table.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { issueTokens } from '../helpers/login-harness.js';
import { msgctl, sandboxEnv } from '../helpers/in-process.js';

const sandbox = useSandbox();
const BODY = 'Hello from Riverside Family Clinic: your lab results are ready, please call us back at your convenience.';
let token = '';

beforeAll(async () => {
  const env = sandboxEnv(sandbox.current);
  const patient = await msgctl(
    ['patients', 'create', '--first-name', 'Maximiliana', '--last-name', 'Featherstonehaugh', '--phone', '+15555550142', '--email', 'maximiliana.featherstonehaugh@example.org', '--mrn', 'MRN-000123456', '--dob', '1980-02-03'],
    { env },
  );
  expect(patient.exitCode, patient.stderr).toBe(0);
  for (const to of ['+15555550142', '+15555550143']) {
    const sent = await msgctl(['send', '--to', to, BODY], { env });
    expect(sent.exitCode, sent.stderr).toBe(0);
  }
  const campaign = await msgctl(['campaigns', 'create', '--name', 'Autumn flu shot recall for every adult patient', '--body', BODY], { env });
  expect(campaign.exitCode, campaign.stderr).toBe(0);
  token = (await issueTokens(sandbox.current)).access_token;
});

/** Display width of the widest line (every character here is one column wide). */
const widest = (text: string) => Math.max(0, ...text.split('\n').map((line) => [...line].length));

const tables: { name: string; args: string[]; headers: string[]; oauth?: boolean }[] = [
  { name: 'patients list', args: ['patients', 'list'], headers: ['id', 'name', 'dob', 'phone', 'email', 'mrn', 'sms_opted_out'] },
  { name: 'campaigns list', args: ['campaigns', 'list'], headers: ['id', 'name', 'status', 'channel', 'from', 'recipients', 'sent', 'delivered', 'failed', 'skipped', 'pending', 'archived'] },
  { name: 'messages list', args: ['messages', 'list', '--after', '2000-01-01'], headers: ['time', 'patient', 'from', 'channel', 'status', 'body'] },
  { name: 'conversations list', args: ['conversations', 'list'], headers: ['last activity', 'patient', 'number', 'channel', 'unread', 'latest'] },
  { name: 'me messages', args: ['me', 'messages'], headers: ['id', 'created_at', 'conversation', 'from', 'body'], oauth: true },
];

describe.each(tables)('$name on a terminal', ({ args, headers, oauth }) => {
  const env = () => (oauth ? { ...sandboxEnv(sandbox.current), MSGCTL_API_KEY: undefined, MSGCTL_TOKEN: token } : sandboxEnv(sandbox.current));

  it.each([80, 120])('fits %i columns, saying what it hid', async (columns) => {
    const r = await msgctl(args, { env: env(), tty: true, columns });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\n').length).toBeGreaterThan(3);
    expect(widest(r.stdout), r.stdout).toBeLessThanOrEqual(columns);
    const head = r.stdout.split('\n')[1]!;
    const missing = headers.filter((h) => !new RegExp(`│ ${h} +│`).test(head));
    if (missing.length) {
      const named = `(${missing.join(', ')} hidden to fit the window; --wide shows all)`;
      expect(r.stderr).toContain(named.length <= columns ? named : `(${missing.length} columns hidden to fit the window; --wide shows all)`);
    }
    expect(widest(r.stderr)).toBeLessThanOrEqual(columns);
    // An id is never cut: a cut one cannot be copied into the next command.
    if (headers[0] === 'id' && head.includes('│ id ')) expect(r.stdout).toMatch(/│ [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12} +│/);
  });

  it('shows every column with --wide', async () => {
    const r = await msgctl([...args, '--wide'], { env: env(), tty: true, columns: 80 });
    expect(r.exitCode, r.stderr).toBe(0);
    for (const h of headers) expect(r.stdout.split('\n')[1]).toMatch(new RegExp(`│ ${h} +│`));
    expect(r.stderr).not.toContain('hidden');
  });
});

describe('a message body at 80 columns', () => {
  it('keeps at least 30 characters of the body in messages list', async () => {
    const r = await msgctl(['messages', 'list', '--after', '2000-01-01'], { env: sandboxEnv(sandbox.current), tty: true, columns: 80 });
    expect(r.stdout).toContain(BODY.slice(0, 29) + '…');
  });
});

describe('one time format in tables', () => {
  it('me messages shows short local time like messages list, and piped output keeps RFC 3339', async () => {
    const env = { ...sandboxEnv(sandbox.current), MSGCTL_API_KEY: undefined, MSGCTL_TOKEN: token };
    const shortTime = /│ (?:[A-Z][a-z]{2} \d{1,2}|\d{4}-\d{2}-\d{2}) \d{2}:\d{2} +│/;
    const mine = await msgctl(['me', 'messages'], { env, tty: true, columns: 120 });
    expect(mine.stdout).toMatch(shortTime);
    expect(mine.stdout).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    const theirs = await msgctl(['messages', 'list', '--after', '2000-01-01'], { env: sandboxEnv(sandbox.current), tty: true, columns: 120 });
    expect(theirs.stdout).toMatch(shortTime);
    const piped = await msgctl(['me', 'messages'], { env });
    expect(piped.stdout).toMatch(/\t\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
  });
});
