/** `msgctl messages get <id>`: GET /patient-messages/{id}, delivery status included. */
import type { Context } from '../context.js';
import type { Message } from '../../contract/api.js';
import { UsageError } from '../errors.js';
import { looksLikeUuid } from '../util/ids.js';
import { messageFields, messageView } from './message-columns.js';

export async function getMessage(ctx: Context, id: string): Promise<void> {
  if (!looksLikeUuid(id)) throw new UsageError(`"${id}" is not a message id (UUID).`);
  const client = await ctx.client();
  const message = await client.get<Message>(`/patient-messages/${id.toLowerCase()}`, undefined, ctx.signal);
  await ctx.out.resource(message, messageFields, messageView);
}
