/** `msgctl messages get <id>`: GET /patient-messages/{id}, delivery status included. */
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { looksLikeUuid } from '../util/ids.js';
import { messageFields, messageView } from './message-columns.js';
import { MESSAGE } from '../api/shapes.js';

export async function getMessage(ctx: Context, id: string): Promise<void> {
  if (!looksLikeUuid(id)) throw new UsageError(`"${id}" is not a message id (UUID).`);
  const client = await ctx.client();
  const message = await client.get(`/patient-messages/${id.toLowerCase()}`, undefined, ctx.signal, MESSAGE);
  await ctx.out.resource(message, messageFields, messageView);
}
