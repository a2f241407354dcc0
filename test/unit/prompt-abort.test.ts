/**
 * Ctrl-C or SIGTERM while a prompt waits ends the command as any interrupted one does (130,
 * 143, "Terminated."): the prompt's wait rejects with the signal's own reason, never with
 * @inquirer's AbortPromptError, which rendered as a failure ("error: Prompt was aborted", exit 1).
 * Both prompts: @inquirer's on a terminal that allows cursor control, and the plain (y/N) line.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { defaultServices } from '../../src/cli/services.js';
import { isAbort } from '../../src/cli/output/render-error.js';

function terminalIo() {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
  const stderr = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
  stderr.resume();
  return { stdin, stdout: stderr, stderr };
}

const terminated = () => Object.assign(new Error('Terminated'), { name: 'AbortError', signal: 'SIGTERM' });

describe('a prompt ended by a signal', () => {
  it.each([
    ['@inquirer (cursor control)', { TERM: 'xterm-256color' }],
    ['the plain line (TERM=dumb)', { TERM: 'dumb' }],
  ])('%s: confirm rejects with the signal\'s reason', async (_name, env) => {
    const controller = new AbortController();
    const io = terminalIo();
    const asked = defaultServices(env).prompter.confirm('Delete it?', io as never, controller.signal);
    setTimeout(() => controller.abort(terminated()), 50);
    const reason = await asked.then(() => null, (err: unknown) => err);
    expect(reason).toBe(controller.signal.reason);
    expect(isAbort(reason)).toBe(true);
  });

  it('@inquirer\'s password prompt too', async () => {
    const controller = new AbortController();
    const asked = defaultServices({ TERM: 'xterm-256color' }).prompter.password('Key:', terminalIo() as never, controller.signal);
    setTimeout(() => controller.abort(terminated()), 50);
    expect(await asked.then(() => null, (err: unknown) => err)).toBe(controller.signal.reason);
  });
});

describe('the plain (y/N) line', () => {
  it('"yes" is yes, anything else no; input that has already ended is no, at once', async () => {
    const ask = async (input: string | null) => {
      const io = terminalIo();
      if (input === null) {
        io.stdin.end();
        io.stdin.resume();
        await new Promise((resolve) => io.stdin.once('end', resolve));
      } else io.stdin.write(input);
      return defaultServices({ TERM: 'dumb' }).prompter.confirm('Delete it?', io as never);
    };
    expect(await ask('yes\n')).toBe(true);
    expect(await ask('Y\n')).toBe(true);
    expect(await ask('n\n')).toBe(false);
    expect(await ask('\n')).toBe(false);
    expect(await ask(null)).toBe(false);
  });
});
