/**
 * Destructive commands ask on a terminal and require --yes otherwise
 * (product.md §2 "Interactive prompts"). The question names what changes
 * (a patient's name, a campaign's name and how many recipients it texts or
 * cancels), so it is built only when there is someone to ask: with --yes, or
 * without a terminal, no request is spent on it.
 */
import type { Context } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { terminalSafe } from '../output/terminal-text.js';

/**
 * The person said no. Not a failure: output/render-error.ts prints "Nothing
 * changed." without "error:", and the exit code is 2, "nothing was sent or
 * changed" (docs/scripting.md#exit-codes), as gh exits 2 on a cancelled prompt.
 */
export class Declined extends CliError {
  constructor() {
    super('Nothing changed.', ExitCode.Usage);
    this.name = 'Declined';
  }
}

export interface Confirmation {
  /** --yes was given. */
  yes: boolean | undefined;
  /** What the command does, by id, for the refusal without a terminal: "Stop campaign 8dcb…". */
  action: string;
  /** The question, naming what changes; may fetch what it names. */
  question: () => Promise<string>;
}

export async function confirmDestructive(ctx: Context, confirmation: Confirmation): Promise<void> {
  if (confirmation.yes) return;
  if (!ctx.interactive) {
    throw new UsageError(`${confirmation.action}: refusing without a terminal to ask on. Pass --yes to confirm.`);
  }
  // The question quotes data (a patient's name): escaped like every other text shown to a person.
  const ok = await ctx.services.prompter.confirm(terminalSafe(await confirmation.question()), ctx.io, ctx.signal, { plain: await ctx.out.plainOnStderr() });
  if (!ok) throw new Declined();
}
