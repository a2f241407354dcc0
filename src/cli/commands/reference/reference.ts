import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Act } from '../kit.js';

export interface ReferenceOptions {
  program: Command;
}

export async function run(ctx: Context, opts: ReferenceOptions): Promise<void> {
  const { referenceMarkdown } = await import('../../reference/markdown.js');
  await ctx.out.write(referenceMarkdown(opts.program));
}

/**
 * Hidden `msgctl __reference`: prints docs/reference.md from the live tree.
 * scripts/gen-reference.mjs runs it on a fresh build and a test compares it
 * with the file, so the reference cannot go stale unnoticed.
 */
export function registerReference(program: Command, act: Act, runF: typeof run = run): void {
  const reference = program
    .command('__reference', { hidden: true })
    .description('Print the command reference (docs/reference.md) as Markdown, generated from the command tree')
    .action(act((ctx) => runF(ctx, { program })));
  examples(reference, ['msgctl __reference > docs/reference.md   # what `npm run docs:reference` does']);
}
