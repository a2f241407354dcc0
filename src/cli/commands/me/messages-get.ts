/** `msgctl me messages get <id>`: one message from your conversations (GET /me/messages/{id}). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { describeArguments, examples, type Act, formatOptions } from '../kit.js';
import { MESSAGE_COLUMNS } from './common.js';
import { MESSAGE } from '../../api/shapes.js';

export interface MeMessagesGetOptions {
  id: string;
}

export async function run(ctx: Context, opts: MeMessagesGetOptions): Promise<void> {
  const message = await (await ctx.client()).get(`/me/messages/${encodeURIComponent(opts.id)}`, undefined, ctx.signal, MESSAGE);
  const { messageView } = await import('../../messages/message-columns.js');
  await ctx.out.resource(message, MESSAGE_COLUMNS, messageView);
}

export function register(messages: Command, act: Act, runF: typeof run = run): void {
  const get = messages
    .command('get <id>')
    .description('One message from your conversations (GET /me/messages/{id})')
    .action(act((ctx, id: string) => runF(ctx, { id })));
  formatOptions(get, FIELDS.message);
  describeArguments(get, { id: 'message id (a UUID: `msgctl me messages` shows them)' });
  examples(get, ['msgctl me messages get 3f0c2a4e-8b1d-4c36-9a51-2d0c1e7f9a10']);
}
