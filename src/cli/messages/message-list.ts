/**
 * `msgctl messages list`: flags checked locally first (exit 2, nothing sent),
 * then GET /patient-messages streamed page by page; with --follow, the new
 * messages after that until Ctrl-C (follow.ts).
 */
import type { Context } from '../context.js';
import type { Query } from '../api/client.js';
import { UsageError } from '../errors.js';
import { looksLikeUuid } from '../util/ids.js';
import { parseTimeFlag } from './time-flags.js';
import { byConversation, messageColumns } from './message-columns.js';
import { followMessages } from './follow.js';
import { MESSAGE } from '../api/shapes.js';

export interface MessageListFlags {
  after?: string;
  before?: string;
  groupBy?: 'message' | 'conversation';
  order?: 'desc' | 'asc';
  patient?: string;
  conversation?: string;
  q?: string;
  limit: number;
  all?: boolean;
  follow?: boolean;
  /** Seconds between polls with --follow. */
  interval: number;
}

function uuidFlag(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!looksLikeUuid(value)) throw new UsageError(`${flag} "${value}" is not an id (a UUID such as 3f0c2a4e-8b1d-4c2e-9f3a-1b2c3d4e5f60).`);
  return value.toLowerCase();
}

/** The GET /patient-messages query for these flags; throws UsageError for anything the service would refuse. */
export function messageQuery(flags: MessageListFlags): Query {
  const query: Query = {
    after: flags.after === undefined ? undefined : parseTimeFlag('--after', flags.after),
    before: flags.before === undefined ? undefined : parseTimeFlag('--before', flags.before),
    group_by: flags.groupBy,
    order: flags.order,
    patient_id: uuidFlag('--patient', flags.patient),
    conversation_id: uuidFlag('--conversation', flags.conversation),
    q: flags.q,
  };
  if (flags.follow) {
    if (flags.before !== undefined) throw new UsageError('--follow waits for new messages, so it cannot be combined with --before.');
    if (flags.groupBy === 'conversation') throw new UsageError('--follow prints messages as they arrive; drop --group-by conversation.');
  }
  return query;
}

/**
 * The service answers an API key's unbounded read with 400 range_required,
 * naming its own parameters; the user gets the flags instead, before any request.
 */
async function requireRangeForApiKey(ctx: Context, query: Query): Promise<void> {
  if (query.after !== undefined || query.patient_id !== undefined || query.conversation_id !== undefined) return;
  if ((await ctx.credential())?.credential.kind !== 'api_key') return;
  throw new UsageError('With an API key, say which messages to read: give --after, --patient or --conversation.', [
    'For example: msgctl messages list --after 7d   (or --after today, --after 2026-11-01)',
    'An org admin\'s OAuth login (`msgctl login`) may list without a range.',
  ]);
}

export async function listMessages(ctx: Context, flags: MessageListFlags): Promise<number | void> {
  const query = messageQuery(flags);
  await requireRangeForApiKey(ctx, query);
  const client = await ctx.client();
  const columns = messageColumns(ctx.out.mode);
  const limit = flags.all ? undefined : flags.limit;
  if (flags.follow) {
    return followMessages(ctx, client, query, columns, {
      limit,
      intervalMs: flags.interval * 1000,
    });
  }
  const rows = client.paginate('/patient-messages', query, { limit, signal: ctx.signal, shape: MESSAGE });
  await ctx.out.list(rows, columns, { empty: 'No messages match.', noun: 'messages', groupedBy: flags.groupBy === 'conversation' ? byConversation : undefined });
}
