import type { Command } from 'commander';
import type { Message, Profile } from '../types/api.js';
import { cell, type Column } from '../output/output.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { choices, examples, positiveInt, type Act } from './kit.js';

interface ListFlags {
  after?: string;
  groupBy?: 'conversation';
  limit: number;
  all?: boolean;
}

const MESSAGE_COLUMNS: Column<Message>[] = [
  { header: 'id', value: (m) => m.id },
  { header: 'created_at', value: (m) => m.created_at },
  { header: 'conversation', value: (m) => m.conversation.title },
  { header: 'from', value: (m) => (m.sent_via ? `${m.sender.name} via ${m.sent_via}` : m.sender.name) },
  { header: 'body', value: (m) => m.body, flex: true },
];

/** RFC 3339 or YYYY-MM-DD; the service decides the rest (time zone, validity). */
const AFTER_RE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}))?$/i;

/** BODY, or `-` / nothing with the text on stdin; checked against the 1,600-character limit before sending. */
async function readBody(ctx: Context, bodyArg: string | undefined): Promise<string> {
  let body = bodyArg;
  if (body === undefined || body === '-') {
    if (body === undefined && ctx.io.stdin.isTTY) throw new UsageError('No message body: pass it as an argument or on stdin.');
    const { readStdinText } = await import('../util/text-input.js');
    body = await readStdinText(ctx);
  }
  if (!body.trim()) throw new UsageError('The message body is empty.');
  const [{ bodyLength }, { LIMITS }] = await Promise.all([import('../util/text.js'), import('../types/api.js')]);
  const length = bodyLength(body);
  if (length > LIMITS.bodyMaxChars) {
    throw new UsageError(`The message is ${length} characters; the limit is ${LIMITS.bodyMaxChars}. Nothing was sent.`);
  }
  return body;
}

export function registerMe(program: Command, act: Act): void {
  const me = program
    .command('me')
    .description('Who the OAuth login is (GET /me): admin, organization, app, scopes, expiry. OAuth only')
    .action(
      act(async (ctx) => {
        const profile = await (await ctx.client()).get<Profile>('/me', undefined, ctx.signal);
        await ctx.out.resource(profile, [
          { header: 'user', value: (p) => p.user.name },
          { header: 'user_id', value: (p) => p.user.id },
          { header: 'role', value: (p) => p.user.role },
          { header: 'organization', value: (p) => p.organization.name },
          { header: 'organization_id', value: (p) => p.organization.id },
          { header: 'app', value: (p) => `${p.app.name} (${p.app.client_id})` },
          { header: 'scopes', value: (p) => p.scopes.join(' ') },
          { header: 'expires_at', value: (p) => p.expires_at },
        ]);
      }),
    );
  examples(me, ['msgctl login && msgctl me', 'msgctl me --json | jq -r .expires_at']);

  const messages = me
    .command('messages')
    .description('Messages in your patient conversations and team chats, oldest first (GET /me/messages); marks nothing read')
    .option('--after <time>', 'only messages at or after this RFC 3339 time or date (midnight in the organization\'s time zone)')
    .option('--group-by <how>', 'conversation: each chat\'s messages together, most recently active chat first', choices(['conversation']))
    .option('--limit <n>', 'print at most this many', positiveInt, 50)
    .option('--all', 'print every message (all pages)')
    .action(
      act(async (ctx, flags: ListFlags) => {
        if (flags.after !== undefined && !AFTER_RE.test(flags.after)) {
          throw new UsageError(`--after must be an RFC 3339 time or a YYYY-MM-DD date (got "${flags.after}").`);
        }
        const client = await ctx.client();
        const rows = client.paginate<Message>(
          '/me/messages',
          { after: flags.after, group_by: flags.groupBy },
          { limit: flags.all ? undefined : flags.limit, signal: ctx.signal },
        );
        await ctx.out.list(rows, MESSAGE_COLUMNS, { empty: 'No messages.' });
      }),
    );
  examples(messages, [
    'msgctl me messages --after 2026-11-01',
    'msgctl me messages --group-by conversation --all --json | jq -r .body',
  ]);

  const get = messages
    .command('get <id>')
    .description('One message from your conversations (GET /me/messages/{id})')
    .action(
      act(async (ctx, id: string) => {
        const message = await (await ctx.client()).get<Message>(`/me/messages/${encodeURIComponent(id)}`, undefined, ctx.signal);
        await ctx.out.resource(message, MESSAGE_COLUMNS);
      }),
    );
  examples(get, ['msgctl me messages get 3f0c2a4e-8b1d-4c36-9a51-2d0c1e7f9a10']);

  const send = me
    .command('send <conversation-id> [body]')
    .description('Send a message as yourself in one of your conversations (POST /me/conversations/{id}/messages)')
    .option('--idempotency-key <uuid>', 'make a retried send safe: the service replays the first result for 24 h')
    .action(
      act(async (ctx, conversationId: string, bodyArg: string | undefined, flags: { idempotencyKey?: string }) => {
        const body = await readBody(ctx, bodyArg);
        const key = ctx.idempotencyKey(flags.idempotencyKey);
        const client = await ctx.client();
        const message = await client.post<Message>(
          `/me/conversations/${encodeURIComponent(conversationId)}/messages`,
          { body },
          key,
          ctx.signal,
        );
        if (ctx.out.mode === 'json') return ctx.out.json(message);
        if (ctx.out.mode === 'plain') return ctx.out.write(`${message.id}\t${message.conversation.id}\t${message.created_at}\n`);
        await ctx.out.write(`Sent message ${message.id} in "${cell(message.conversation.title)}" as ${cell(message.sender.name)}.\n`);
      }),
    );
  examples(send, [
    'msgctl me send 6b1f0c9e-2d4a-4f8e-9c3b-7a5d1e0f2b64 "Running 10 minutes late"',
    'echo "Lab results are in" | msgctl me send 6b1f0c9e-2d4a-4f8e-9c3b-7a5d1e0f2b64 -',
  ]);
}
