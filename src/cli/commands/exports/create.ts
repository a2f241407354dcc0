/** `msgctl exports create <conversation-id>` (POST /conversations/{id}/exports); --wait until it is ready. */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ARGS, describeArguments, choices, examples, type Act, formatOptions } from '../kit.js';
import { uuidArg } from '../uuid-arg.js';
import { exportFields } from './common.js';
import { EXPORT } from '../../api/shapes.js';
import { shellWord } from '../../util/shell-word.js';
import { cell } from '../../output/terminal-text.js';

export interface ExportsCreateOptions {
  conversationId: string;
  format: string;
  wait?: boolean;
  idempotencyKey?: string;
}

export async function run(ctx: Context, opts: ExportsCreateOptions): Promise<void> {
  const client = await ctx.client();
  let current = await client.post(
    `/conversations/${opts.conversationId}/exports`,
    { format: opts.format },
    ctx.idempotencyKey(opts.idempotencyKey),
    ctx.signal,
    EXPORT,
  );
  if (opts.wait) {
    const { waitForExport } = await import('../../exports/follow.js');
    current = await waitForExport(client, current.id, ctx.signal, current, ctx.out);
  }
  await ctx.out.resource(current, exportFields);
  if (current.status === 'running') ctx.out.info(`Export ${cell(current.id)} started. Follow it: msgctl exports get ${shellWord(cell(current.id))} --wait`);
}

export function register(exportsCmd: Command, act: Act, runF: typeof run = run): void {
  const create = exportsCmd
    .command('create')
    .description('Start exporting a conversation (POST /conversations/{id}/exports); --wait until it is ready')
    .argument('<conversation-id>', 'conversation (UUID)', uuidArg('conversation id'))
    .option('--format <format>', 'file format', choices(['json', 'csv']), 'json')
    .option('--wait', 'wait until the export is ready, then print it with its download_url')
    .option('--idempotency-key <uuid>', 'make a retried start safe: the service replays the first result for 24 h')
    .action(
      act((ctx, conversationId: string, flags: Omit<ExportsCreateOptions, 'conversationId'>) => runF(ctx, { ...flags, conversationId })),
    );
  formatOptions(create, FIELDS.export);
  describeArguments(create, { 'conversation-id': ARGS.conversationId });
  examples(create, [
    'msgctl exports create "$CONV" --wait',
    'msgctl exports create "$CONV" --format csv --wait --json | jq -r .id',
  ]);
}
