/** `msgctl messages get <id>`: one message with its delivery status (GET /patient-messages/{id}). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ARGS, describeArguments, examples, type Act, formatOptions } from '../kit.js';

export interface MessagesGetOptions {
  id: string;
}

export async function run(ctx: Context, opts: MessagesGetOptions): Promise<void> {
  const { getMessage } = await import('../../messages/message-get.js');
  await getMessage(ctx, opts.id);
}

export function register(messages: Command, act: Act, runF: typeof run = run): void {
  const get = messages
    .command('get <id>')
    .description('Show one message with its delivery status (GET /patient-messages/{id})')
    .action(act((ctx, id: string) => runF(ctx, { id })));
  formatOptions(get, FIELDS.message);
  describeArguments(get, { id: ARGS.messageId });
  examples(get, ['msgctl messages get "$MESSAGE_ID"', 'msgctl messages get "$MESSAGE_ID" --json | jq .delivery']);
}
