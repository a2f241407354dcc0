/**
 * The real confirmation prompt (@inquirer) on a pseudo-terminal (util-linux
 * `script`): `campaigns start` asks, naming the campaign and how many it
 * texts; typing "n" prints "Nothing changed." with no "error" and exits 2,
 * typing "y" starts it (issue 29 item 5).
 */
import { execFileSync, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { campaignTable } from '../../src/sandbox/domain/campaigns.js';
import { useSandbox } from '../helpers/sandbox.js';
import { binPath, jsonLines, sandboxEnv } from '../helpers/cli.js';
// Drafts are set up in this process; the confirmations themselves run the binary on a terminal.
import { msgctl } from '../helpers/in-process.js';

const sandbox = useSandbox();
const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** A terminal that allows cursor control (the test env sets NO_COLOR): the prompt is @inquirer's. */
const INQUIRER = { TERM: 'xterm-256color', NO_COLOR: undefined };

/** Runs msgctl on a pseudo-terminal, types `answer` once `prompt` appears, and returns what the terminal showed. */
function answerOnTerminal(args: string[], prompt: string, answer: string, extraEnv: Record<string, string | undefined> = INQUIRER): Promise<{ output: string; exitCode: number | null }> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, binPath(), ...args].map(quote).join(' ');
  const env = Object.fromEntries(Object.entries(sandboxEnv(sandbox.current, extraEnv)).filter(([, value]) => value !== undefined));
  const child = spawn('script', ['-qfec', `stty cols 200; ${command}`, '/dev/null'], { env });
  let output = '';
  let answered = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no answer in time; the terminal showed: ${output}`));
    }, 25_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (!answered && output.includes(prompt)) {
        answered = true;
        child.stdin.write(answer);
      }
    });
    child.on('exit', (exitCode) => {
      clearTimeout(timer);
      resolve({ output, exitCode });
    });
  });
}

async function draft(name: string): Promise<string> {
  const env = sandboxEnv(sandbox.current);
  const created = await msgctl(['campaigns', 'create', '--name', name, '--body', 'Flu shots are in', '--channel', 'sms', '--json'], { env });
  const id = jsonLines(created.stdout)[0].id as string;
  const orgId = sandbox.current.credentials.organization_id;
  const patient = sandbox.current.sb.db.patients.find((p) => p.orgId === orgId && !p.deleted_at && p.phone !== null)!;
  expect((await msgctl(['campaigns', 'recipients', 'add', id, '--patient', patient.id], { env })).exitCode).toBe(0);
  return id;
}

describe.skipIf(!hasScript)(`campaigns start on a real terminal${hasScript ? '' : ' — skipped: util-linux script is not installed'}`, () => {
  it('"n" at the prompt: "Nothing changed.", no error, exit 2, still a draft', async () => {
    const id = await draft('Pty no');
    const r = await answerOnTerminal(['campaigns', 'start', id], 'It texts 1 recipient', 'n\r');
    expect(r.output).toContain(`Start campaign "Pty no" (${id})? It texts 1 recipient from +1`);
    expect(r.output).toContain('Nothing changed.');
    expect(r.output).not.toMatch(/error/i);
    expect(r.output).toContain('\x1b'); // @inquirer's prompt, redrawn in place
    expect(r.exitCode).toBe(2);
    expect(campaignTable(sandbox.current.sb).get(id)!.status).toBe('draft');
  });

  it('TERM=dumb: the question is a plain line, no cursor control (not @inquirer\'s); "n" changes nothing, "yes" starts it', async () => {
    const id = await draft('Pty dumb');
    const no = await answerOnTerminal(['campaigns', 'start', id], '(y/N) ', 'n\r', { TERM: 'dumb' });
    expect(no.output).toContain(`Start campaign "Pty dumb" (${id})? It texts 1 recipient from +1`);
    expect(no.output).toContain('Nothing changed.');
    expect(no.output).not.toContain('\x1b');
    expect(no.exitCode).toBe(2);
    expect(campaignTable(sandbox.current.sb).get(id)!.status).toBe('draft');
    const yes = await answerOnTerminal(['campaigns', 'start', id], '(y/N) ', 'yes\r', { TERM: 'dumb' });
    expect(yes.exitCode, yes.output).toBe(0);
    expect(yes.output).not.toContain('\x1b');
    expect(campaignTable(sandbox.current.sb).get(id)!.status).not.toBe('draft');
  });

  // MSGCTL_PLAIN=1, --no-color and --color never ask the prompt for the plain line as --plain does:
  // test/cli/confirmations.test.ts, in process (each of them on a terminal cost a process here).
  it('--plain on a terminal that allows cursor control: the plain (y/N) line, not @inquirer\'s redrawn one', async () => {
    const id = await draft('Pty plain');
    const no = await answerOnTerminal(['campaigns', 'start', id, '--plain'], '(y/N) ', 'n\r', INQUIRER);
    expect(no.output).toContain(`? It texts 1 recipient from +1`);
    expect(no.output).not.toContain('\x1b');
    expect(no.exitCode).toBe(2);
    expect(campaignTable(sandbox.current.sb).get(id)!.status).toBe('draft');
  });

  it('"y" at the prompt starts it', async () => {
    const id = await draft('Pty yes');
    const r = await answerOnTerminal(['campaigns', 'start', id], 'It texts 1 recipient', 'y\r');
    expect(r.exitCode, r.output).toBe(0);
    expect(campaignTable(sandbox.current.sb).get(id)!.status).not.toBe('draft');
  });
});
