/**
 * Flag parsing apart from the work (gh's runF seam, test/helpers/parse-verb.ts): what a command
 * line gives a verb's `run`, and what commander refuses before anything runs, without a sandbox.
 * The first test walks every verb module, so a verb added without the seam fails here.
 */
import { Command, type Argument, type Option } from 'commander';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseVerb } from '../helpers/parse-verb.js';
import { choicesOf } from '../../src/cli/commands/kit.js';
import { registerSend } from '../../src/cli/commands/send/send.js';
import * as patientsList from '../../src/cli/commands/patients/list.js';
import * as patientsUpdate from '../../src/cli/commands/patients/update.js';
import * as messagesList from '../../src/cli/commands/messages/list.js';
import * as messagesReact from '../../src/cli/commands/messages/react.js';
import * as campaignsCreate from '../../src/cli/commands/campaigns/create.js';
import * as importsCreate from '../../src/cli/commands/imports/create.js';
import { registerSandbox } from '../../src/cli/commands/sandbox/command.js';

type Register = Parameters<typeof parseVerb>[0];
const COMMANDS = join(import.meta.dirname, '../../src/cli/commands');
/** Every module under src/cli/commands that exports a `run`: one verb each. */
const verbs: [string, Register][] = [];
for (const file of readdirSync(COMMANDS, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).sort()) {
  const module = (await import(pathToFileURL(join(COMMANDS, file)).href)) as Record<string, unknown>;
  if (typeof module.run !== 'function') continue;
  const registers = Object.entries(module).filter(([name, value]) => name.startsWith('register') && typeof value === 'function');
  if (registers.length !== 1) throw new Error(`${file}: ${registers.length} register functions, expected one`);
  verbs.push([file, registers[0]![1] as Register]);
}
const A_UUID = '3f0c2a4e-8b1d-4c36-9a51-2d0c1e7f9a10';

/** Values for the arguments whose parsers take a closed set without kit's choices(). */
const KNOWN: Record<string, string> = { method: 'GET', path: '/organization' };

/** A value commander accepts for an argument or option: its first choice, a UUID for an id, else a word. */
function valueFor(name: string, parser: unknown): string {
  return choicesOf(parser)?.[0] ?? KNOWN[name] ?? (/id>?$/i.test(name) ? A_UUID : 'x');
}

/** The shortest command line a verb accepts: its required arguments and mandatory options. */
function minimalArgv(command: Command): string[] {
  const args = command.registeredArguments.filter((a) => a.required).map((a) => valueFor(a.name(), (a as Argument & { parseArg?: unknown }).parseArg));
  const options = command.options.filter((o) => o.mandatory).flatMap((o: Option) => [o.long!, valueFor(o.flags, o.parseArg)]);
  return [...args, ...options];
}

describe('every verb module', () => {
  it('is found (the walk sees the verb modules)', () => {
    expect(verbs.length).toBeGreaterThan(60);
  });

  it.each(verbs)('%s: its register(parent, act, runF) hands the parsed flags to runF', async (_, register) => {
    const probe = new Command('msgctl');
    register(probe, () => async () => undefined, async () => undefined);
    expect(probe.commands).toHaveLength(1);
    const command = probe.commands[0]!;
    const parsed = await parseVerb(register, [command.name(), ...minimalArgv(command)]);
    // parseVerb fails the test unless runF was called exactly once.
    expect(parsed.error, JSON.stringify(parsed.error)).toBeUndefined();
  });
});

describe('what reaches run', () => {
  it('send: flags in camelCase, BODY as body, --concurrency defaulted', async () => {
    expect(await parseVerb(registerSend, ['send', '--to', '(212) 555-0100', '--channel', 'sms', '--dry-run', 'hello'])).toEqual({
      opts: { to: '(212) 555-0100', channel: 'sms', dryRun: true, body: 'hello', concurrency: 4 },
    });
  });

  it('send --csv: the batch flags, no body', async () => {
    const { opts } = await parseVerb(registerSend, ['send', '--csv', 'tomorrow.csv', '--template-file', 'reminder.txt', '--concurrency', '8', '--strict']);
    expect(opts).toEqual({ csv: 'tomorrow.csv', templateFile: 'reminder.txt', concurrency: 8, strict: true, body: undefined });
  });

  it('patients list: --limit as a number, 50 by default with --all', async () => {
    expect((await parseVerb(patientsList.register, ['list', '--mrn', 'A-1001', '--limit', '5'])).opts).toEqual({ mrn: 'A-1001', limit: 5 });
    expect((await parseVerb(patientsList.register, ['list', '--all'])).opts).toEqual({ all: true, limit: 50 });
  });

  it('messages list: --after kept as written (resolved against the clock by run)', async () => {
    expect((await parseVerb(messagesList.register, ['list', '--after', '7d', '--all'])).opts).toMatchObject({ after: '7d', all: true });
  });

  it('positional ids and values join the flags under their own names', async () => {
    expect((await parseVerb(patientsUpdate.register, ['update', A_UUID, '--first-name', 'Ada'])).opts).toEqual({ id: A_UUID, firstName: 'Ada' });
    expect((await parseVerb(messagesReact.register, ['react', A_UUID, '👍'])).opts).toEqual({ messageId: A_UUID, emoji: '👍' });
    expect((await parseVerb(importsCreate.register, ['create', 'roster.csv', '--dry-run', '--wait'])).opts).toEqual({ file: 'roster.csv', dryRun: true, wait: true });
    expect((await parseVerb(campaignsCreate.register, ['create', '--name', 'Flu', '--body', 'Flu shots', '--channel', 'sms'])).opts).toEqual({ name: 'Flu', body: 'Flu shots', channel: 'sms' });
  });
});

describe('refused before anything runs', () => {
  it.each([
    ['a channel outside the list', registerSend, ['send', '--to', 'x', '--channel', 'fax', 'hi'], 'commander.invalidArgument', /Allowed: secure, sms/],
    ['a concurrency below 1', registerSend, ['send', '--csv', 'f.csv', '--concurrency', '0'], 'commander.invalidArgument', /whole number ≥ 1/],
    ['a misspelt flag, with the suggestion', registerSend, ['send', '--too', 'x'], 'commander.unknownOption', /Did you mean --to\?/],
    ['a --limit of 0', patientsList.register, ['list', '--limit', '0'], 'commander.invalidArgument', /whole number ≥ 1/],
    // Number() reads these as 16, 3 and 10: a person means none of them.
    ['a --limit in hex', patientsList.register, ['list', '--limit', '0x10'], 'commander.invalidArgument', /whole number ≥ 1/],
    ['a --limit in binary', patientsList.register, ['list', '--limit', '0b11'], 'commander.invalidArgument', /whole number ≥ 1/],
    ['a --limit with an exponent', patientsList.register, ['list', '--limit', '1e1'], 'commander.invalidArgument', /whole number ≥ 1/],
    ['a --concurrency of Infinity', registerSend, ['send', '--csv', 'f.csv', '--concurrency', 'Infinity'], 'commander.invalidArgument', /whole number ≥ 1/],
    ['an id that is not a UUID', messagesReact.register, ['react', 'nope', '👍'], 'commander.invalidArgument', /must be a UUID/],
    ['more than a million --seed-messages', registerSandbox, ['sandbox', '--port', '0', '--seed-messages', '1000001'], 'commander.invalidArgument', /Must be at most 1000000\./],
  ] as const)('%s', async (_, register, argv, code, message) => {
    const parsed = await parseVerb(register as Parameters<typeof parseVerb>[0], [...argv]);
    expect(parsed.opts).toBeUndefined();
    expect(parsed.error?.code).toBe(code);
    expect(parsed.error?.message).toMatch(message);
  });
});
