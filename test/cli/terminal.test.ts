/**
 * Terminal behaviour, in-process with the Context's services replaced by
 * doubles: prompts (confirm, hidden input) are answered by the test, and
 * stdout/stderr are TTYs. The real prompt library is exercised by the e2e
 * tests; here the point is what the commands do with each answer.
 */
import { describe, expect, it } from 'vitest';
import type { Prompter } from '../../src/cli/context.js';
import { useSandbox } from '../helpers/sandbox.js';
import { jsonLines, msgctl, sandboxEnv, isolatedEnv } from '../helpers/in-process.js';

const sandbox = useSandbox();

/** A prompter that answers from a script and records what it was asked. */
function scripted(answers: { confirm?: boolean; password?: string }) {
  const asked: string[] = [];
  const prompter: Prompter = {
    async confirm(question) {
      asked.push(question);
      return answers.confirm ?? false;
    },
    async password(question) {
      asked.push(question);
      return answers.password ?? '';
    },
  };
  return { prompter, asked };
}

async function newPatient(first: string): Promise<string> {
  const r = await msgctl(['patients', 'create', '--first-name', first, '--last-name', 'Prompt', '--email', `${first.toLowerCase()}@example.com`, '--json'], {
    env: sandboxEnv(sandbox.current),
  });
  expect(r.exitCode, r.stderr).toBe(0);
  return jsonLines(r.stdout)[0].id;
}

describe('destructive commands on a terminal', () => {
  it('ask before deleting, and change nothing when the answer is no', async () => {
    const id = await newPatient('Nora');
    const { prompter, asked } = scripted({ confirm: false });
    const r = await msgctl(['patients', 'delete', id], { env: sandboxEnv(sandbox.current), tty: true, services: { prompter } });
    expect(asked).toEqual([`Delete patient Nora Prompt (${id})? This cannot be undone.`]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('Nothing changed.\n');
    expect(sandbox.current.sb.db.patients.get(id)?.deleted_at ?? null).toBeNull();
  });

  it('delete once the answer is yes', async () => {
    const id = await newPatient('Otto');
    const { prompter } = scripted({ confirm: true });
    const r = await msgctl(['patients', 'delete', id], { env: sandboxEnv(sandbox.current), tty: true, services: { prompter } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(`Deleted patient ${id}.`);
    const stored = sandbox.current.sb.db.patients.get(id);
    expect(stored === undefined || Boolean(stored.deleted_at)).toBe(true);
  });

  it('never prompt when piped: --yes is required instead', async () => {
    const id = await newPatient('Pia');
    const { prompter, asked } = scripted({ confirm: true });
    const r = await msgctl(['patients', 'delete', id], { env: sandboxEnv(sandbox.current), services: { prompter } });
    expect(asked).toEqual([]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--yes/);
  });
});

describe('secrets typed at a hidden prompt', () => {
  it('auth set-key reads the key from the prompt on a terminal, never from argv', async () => {
    const { prompter, asked } = scripted({ password: `  ${sandbox.current.credentials.api_key}\n` });
    const env = isolatedEnv({ MSGCTL_BASE_URL: sandbox.current.baseUrl });
    const r = await msgctl(['auth', 'set-key', '--insecure-storage', '--name', 'typed'], { env, tty: true, services: { prompter } });
    expect(asked).toEqual(['Paste the API key (input hidden):']);
    expect(r.exitCode, r.stderr).toBe(0);
    const status = await msgctl(['auth', 'status', '--json'], { env });
    expect(jsonLines(status.stdout)[0]).toMatchObject({ credential: 'api_key', source: 'file', key_name: 'typed' });
  });

  it('an empty answer stores nothing', async () => {
    const { prompter } = scripted({ password: '   ' });
    const env = isolatedEnv({ MSGCTL_BASE_URL: sandbox.current.baseUrl });
    const r = await msgctl(['auth', 'set-key', '--insecure-storage'], { env, tty: true, services: { prompter } });
    expect(r.exitCode).toBe(2);
    const status = await msgctl(['auth', 'status', '--json'], { env });
    expect(jsonLines(status.stdout)[0]).toMatchObject({ credential: null });
  });
});

describe('output modes', () => {
  it('a table on a terminal, tab-separated lines when piped, JSON Lines with --json', async () => {
    const env = sandboxEnv(sandbox.current);
    const table = await msgctl(['patients', 'list', '--mrn', 'A-1001'], { env, tty: true, columns: 120 });
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^ID\s+NAME\s+DOB\s+PHONE/);
    expect(table.stdout).toMatch(/  Ada Lovelace  /);
    const piped = await msgctl(['patients', 'list', '--mrn', 'A-1001'], { env });
    expect(piped.stdout.trim().split('\t')[1]).toBe('Ada Lovelace');
    const json = await msgctl(['patients', 'list', '--mrn', 'A-1001', '--json'], { env });
    expect(jsonLines(json.stdout)[0]).toMatchObject({ mrn: 'A-1001' });
  });

  it('a table on a terminal: no colour and no cursor control under TERM=dumb, NO_COLOR or CLICOLOR=0; colour otherwise', async () => {
    // The real process on a pseudo-terminal, TERM=dumb and in colour: test/e2e/table-width-pty.test.ts.
    const table = (extra: Record<string, string | undefined>) =>
      msgctl(['patients', 'list', '--limit', '3', '--no-pager'], { env: sandboxEnv(sandbox.current, extra), tty: true, columns: 100 });
    for (const extra of [{ TERM: 'dumb', NO_COLOR: undefined }, { TERM: 'xterm', NO_COLOR: '1' }, { TERM: 'xterm', CLICOLOR: '0', NO_COLOR: undefined }]) {
      const r = await table(extra);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout, JSON.stringify(extra)).toMatch(/^ID +NAME/m);
      expect(r.stdout + r.stderr, JSON.stringify(extra)).not.toMatch(/\x1b\[[0-9;?]*[a-zA-Z]/);
    }
    const coloured = await table({ TERM: 'xterm', NO_COLOR: undefined });
    expect(coloured.stdout).toMatch(/\x1b\[1m/);
  });
});
