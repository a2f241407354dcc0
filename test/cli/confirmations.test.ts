/**
 * Issue 29 item 5: confirmations name what they change — the patient by name,
 * the campaign by name with how many recipients it texts or cancels — and
 * `campaigns start`, which texts every recipient, asks too. Declining prints
 * "Nothing changed." (no "error") and exits 2; without a terminal, --yes is
 * required. The prompt is a double here; test/e2e/confirm-pty.test.ts answers
 * the real one in a pseudo-terminal.
 */
import { describe, expect, it } from 'vitest';
import type { Prompter } from '../../src/cli/context.js';
import { campaignTable } from '../../src/sandbox/domain/campaigns.js';
import { useSandbox } from '../helpers/sandbox.js';
import { jsonLines, msgctl, sandboxEnv } from '../helpers/in-process.js';

const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current);
const db = () => sandbox.current.sb.db;
const status = (id: string) => campaignTable(sandbox.current.sb).get(id)!.status;

function answering(answer: boolean) {
  const asked: string[] = [];
  const prompter: Prompter = {
    async confirm(question) {
      asked.push(question);
      return answer;
    },
    async password() {
      return '';
    },
  };
  return { prompter, asked };
}

async function ok(args: string[]) {
  const r = await msgctl([...args, '--json'], { env: env() });
  expect(r.exitCode, r.stderr).toBe(0);
  return jsonLines(r.stdout);
}

/** A draft sms campaign with `n` seeded recipients. */
async function draft(name: string, n: number) {
  const [campaign] = await ok(['campaigns', 'create', '--name', name, '--body', 'Flu shots are in', '--channel', 'sms', '--interval', '3600']);
  const orgId = sandbox.current.credentials.organization_id;
  const patients = db().patients.filter((p) => p.orgId === orgId && !p.deleted_at && p.phone !== null).slice(0, n);
  await ok(['campaigns', 'recipients', 'add', campaign.id, ...patients.flatMap((p) => ['--patient', p.id])]);
  return campaign.id as string;
}

const interactive = (args: string[], prompter: Prompter) => msgctl(args, { env: env(), tty: true, services: { prompter } });

describe('campaigns start asks first, with the count', () => {
  it('a draft with no recipients is refused before the question (exit 6, as the service would), with how to add them', async () => {
    const [campaign] = await ok(['campaigns', 'create', '--name', 'Nobody yet', '--body', 'Hi', '--channel', 'sms']);
    const { prompter, asked } = answering(true);
    const r = await interactive(['campaigns', 'start', campaign.id], prompter);
    expect(asked).toHaveLength(0);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain(`Campaign "Nobody yet" (${campaign.id}) has no recipients yet`);
    expect(r.stderr).toContain(`msgctl campaigns recipients add ${campaign.id} --csv FILE`);
    expect(status(campaign.id)).toBe('draft');
    // Without a terminal (--yes), the service says the same with the same code.
    expect((await msgctl(['campaigns', 'start', campaign.id, '--yes'], { env: env() })).exitCode).toBe(6);
  });

  it('on a terminal: names the campaign, how many it texts and from which number; "no" changes nothing, exit 2', async () => {
    const id = await draft('Flu shots', 3);
    const { prompter, asked } = answering(false);
    const r = await interactive(['campaigns', 'start', id], prompter);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(new RegExp(`^Start campaign "Flu shots" \\(${id}\\)\\? It texts 3 recipients from \\+1\\d{10}, one every 3600 s\\.$`));
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('Nothing changed.\n');
    expect(r.stderr).not.toMatch(/error/i);
    expect(status(id)).toBe('draft');
  });

  it('is asked plainly with --plain, MSGCTL_PLAIN=1, --no-color or --color never, on a terminal that allows cursor control', async () => {
    // What the real prompt does when asked plainly (the "(y/N)" line, not @inquirer's redrawn one)
    // is test/e2e/confirm-pty.test.ts's, on a pseudo-terminal with --plain; here, every way of asking.
    const cursorControl = { TERM: 'xterm-256color', NO_COLOR: undefined };
    const cases: [string[], Record<string, string>, boolean][] = [
      [[], {}, false],
      [['--plain'], {}, true],
      [[], { MSGCTL_PLAIN: '1' }, true],
      // No colour, however it is asked for, is what NO_COLOR is: the plain line.
      [['--no-color'], {}, true],
      [['--color', 'never'], {}, true],
    ];
    for (const [i, [flags, extra, plain]] of cases.entries()) {
      const label = JSON.stringify([flags, extra]);
      const id = await draft(`Plain ${i}`, 1);
      const how: boolean[] = [];
      const prompter: Prompter = {
        async confirm(_question, _io, _signal, options) {
          how.push(Boolean(options?.plain));
          return false;
        },
        async password() {
          return '';
        },
      };
      const r = await msgctl(['campaigns', 'start', id, ...flags], { env: sandboxEnv(sandbox.current, { ...cursorControl, ...extra }), tty: true, services: { prompter } });
      expect(r.exitCode, label).toBe(2);
      expect(how, label).toEqual([plain]);
      if (plain) expect(r.stderr, label).not.toContain('\x1b');
      expect(status(id), label).toBe('draft');
    }
  });

  it('"yes" starts it', async () => {
    const id = await draft('Recall', 2);
    const r = await interactive(['campaigns', 'start', id], answering(true).prompter);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(status(id)).toBe('running');
    await ok(['campaigns', 'stop', id, '--yes']);
  });

  it('without a terminal it needs --yes, as the other destructive commands do', async () => {
    const id = await draft('Scripted', 1);
    const { prompter, asked } = answering(true);
    const r = await msgctl(['campaigns', 'start', id], { env: env(), services: { prompter } });
    expect(asked).toEqual([]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`Start campaign ${id}: refusing without a terminal to ask on. Pass --yes to confirm.`);
    expect(status(id)).toBe('draft');
    await ok(['campaigns', 'start', id, '--yes']);
    expect(status(id)).toBe('running');
    await ok(['campaigns', 'stop', id, '--yes']);
  });

  it('with --json, declining is a problem line with code "declined"', async () => {
    const id = await draft('Quiet', 1);
    const r = await interactive(['campaigns', 'start', id, '--json'], answering(false).prompter);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stderr)).toMatchObject({ code: 'declined', title: 'Nothing changed' });
  });
});

describe('stop and delete name what they change', () => {
  it('stop says how many recipients are cancelled', async () => {
    const id = await draft('Winter recall', 3);
    await ok(['campaigns', 'start', id, '--yes']);
    const { prompter, asked } = answering(false);
    const r = await interactive(['campaigns', 'stop', id], prompter);
    expect(r.exitCode).toBe(2);
    expect(asked[0]).toMatch(new RegExp(`^Stop campaign "Winter recall" \\(${id}\\)\\? [23] recipients not yet sent will be cancelled \\([01] already sent\\), and it cannot be started again\\.$`));
    expect(status(id)).toBe('running');
    await ok(['campaigns', 'stop', id, '--yes']);
  });

  it('a start or stop the campaign\'s status does not allow is refused before the question, as the service would (exit 5, its 409 code), with what to do', async () => {
    const refusedOnTerminal = async (verb: 'start' | 'stop', id: string, said: string, hint: string, code: string) => {
      const { prompter, asked } = answering(true);
      const r = await interactive(['campaigns', verb, id], prompter);
      expect(asked, `${verb} ${status(id)}`).toEqual([]);
      expect(r.exitCode, r.stderr).toBe(5);
      expect(r.stderr).toContain(said);
      expect(r.stderr).toContain(hint);
      // With --yes the service answers: the same exit code and problem code.
      const scripted = await msgctl(['campaigns', verb, id, '--yes', '--json'], { env: env() });
      expect(scripted.exitCode).toBe(5);
      expect(JSON.parse(scripted.stderr)).toMatchObject({ code });
      const plain = await msgctl(['campaigns', verb, id, '--yes'], { env: env() });
      expect(plain.stderr).toMatch(new RegExp(`\\(${code}, HTTP 409\\)[^]*hint: .*\`msgctl campaigns get ID\` shows its status`));
      const asJson = await interactive(['campaigns', verb, id, '--json'], answering(true).prompter);
      expect(JSON.parse(asJson.stderr)).toMatchObject({ code });
    };
    const drafted = await draft('Never started', 1);
    await refusedOnTerminal('stop', drafted, `Campaign "Never started" (${drafted}) is a draft: it has sent nothing, so there is nothing to stop.`, `msgctl campaigns delete ${drafted}`, 'campaign_not_running');
    const running = await draft('Going', 2);
    await ok(['campaigns', 'start', running, '--yes']);
    await refusedOnTerminal('start', running, `Campaign "Going" (${running}) is already running: there is nothing to start.`, `msgctl campaigns watch ${running}`, 'campaign_not_editable');
    await ok(['campaigns', 'stop', running, '--yes']);
    expect(status(running)).toBe('stopped');
    await refusedOnTerminal('start', running, `Campaign "Going" (${running}) is stopped (`, 'a stopped campaign cannot be started again.', 'campaign_not_editable');
    await refusedOnTerminal('stop', running, `Campaign "Going" (${running}) is already stopped.`, `msgctl campaigns get ${running}`, 'campaign_not_running');
    expect(status(drafted)).toBe('draft');
    expect(status(running)).toBe('stopped');
  });

  it('campaigns delete names the campaign and its recipients', async () => {
    const id = await draft('Old draft', 2);
    const { prompter, asked } = answering(false);
    const r = await interactive(['campaigns', 'delete', id], prompter);
    expect(r.exitCode).toBe(2);
    expect(asked).toEqual([`Delete campaign "Old draft" (${id}) (draft, 2 recipients)? This cannot be undone.`]);
  });

  it('patients delete names the patient (escaped: names are data)', async () => {
    const [patient] = await ok(['patients', 'create', '--first-name', 'Ada\u001b[31m', '--last-name', 'Byron', '--mrn', 'AB-9', '--email', 'ab9@example.com']);
    const { prompter, asked } = answering(false);
    const r = await interactive(['patients', 'delete', patient.id], prompter);
    expect(r.exitCode).toBe(2);
    expect(asked).toEqual([`Delete patient Ada\\x1b[31m Byron (MRN AB-9, ${patient.id})? This cannot be undone.`]);
    expect(db().patients.get(patient.id)!.deleted_at ?? null).toBeNull();
  });

  it('a patient that does not exist is "not found" before any question', async () => {
    const { prompter, asked } = answering(true);
    const r = await interactive(['patients', 'delete', '00000000-0000-4000-8000-000000000000'], prompter);
    expect(asked).toEqual([]);
    expect(r.exitCode).toBe(4);
  });
});
