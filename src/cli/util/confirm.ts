/**
 * Destructive commands ask on a terminal and require --yes otherwise
 * (product.md §2 "Interactive prompts").
 */
import type { Context } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import { terminalSafe } from '../output/terminal-text.js';

export async function confirmDestructive(ctx: Context, question: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  if (!ctx.interactive) {
    throw new UsageError(`${question} Refusing without a terminal to ask on: pass --yes to confirm.`);
  }
  // The question can quote data (a patient's name): escaped like every other text shown to a person.
  const ok = await ctx.services.prompter.confirm(terminalSafe(question), ctx.io);
  if (!ok) throw new CliError('Cancelled; nothing was changed.');
}
