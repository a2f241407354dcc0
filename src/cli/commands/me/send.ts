/** `msgctl me send <conversation-id> [body]`: as yourself (POST /me/conversations/{id}/messages). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { cell } from '../../output/terminal-text.js';
import { describeArguments, examples, type Act } from '../kit.js';
import { readBody } from './common.js';
import { ME_SENT_MESSAGE } from '../../api/shapes.js';

export interface MeSendOptions {
  conversationId: string;
  /** The text, `-` for stdin, or undefined (stdin when piped). */
  body?: string;
  idempotencyKey?: string;
}

export async function run(ctx: Context, opts: MeSendOptions): Promise<void> {
  const body = await readBody(ctx, opts.body);
  const key = ctx.idempotencyKey(opts.idempotencyKey);
  const client = await ctx.client();
  const { data: message } = await client.request('POST', `/me/conversations/${encodeURIComponent(opts.conversationId)}/messages`, {
    body: { body },
    idempotencyKey: key,
    signal: ctx.signal,
    shape: ME_SENT_MESSAGE,
    mayHaveTakenEffect: 'It may have been sent all the same: look for it with `msgctl me messages` before sending it again.',
  });
  if (ctx.out.mode === 'json') return ctx.out.json(message);
  if (ctx.out.mode === 'plain') return ctx.out.write(`${[message.id, message.conversation.id, message.created_at].map(cell).join('\t')}\n`);
  await ctx.out.write(`Sent message ${cell(message.id)} in "${cell(message.conversation.title)}" as ${cell(message.sender.name)}.\n`);
}

export function register(me: Command, act: Act, runF: typeof run = run): void {
  const send = me
    .command('send <conversation-id> [body]')
    .description('Send a message as yourself in one of your conversations (POST /me/conversations/{id}/messages)')
    .option('--idempotency-key <uuid>', 'make a retried send safe: the service replays the first result for 24 h')
    .action(
      act((ctx, conversationId: string, body: string | undefined, flags: { idempotencyKey?: string }) =>
        runF(ctx, { ...flags, conversationId, body }),
      ),
    );
  describeArguments(send, { 'conversation-id': 'conversation id (a UUID: `msgctl me messages --jq .conversation` lists each message\'s, with its title)', body: 'the message; `-` or omitted: read from stdin' });
  examples(send, [
    'msgctl me send 6b1f0c9e-2d4a-4f8e-9c3b-7a5d1e0f2b64 "Running 10 minutes late"',
    'echo "Lab results are in" | msgctl me send 6b1f0c9e-2d4a-4f8e-9c3b-7a5d1e0f2b64 -',
  ]);
}
