/** What the `msgctl me` verbs share: message columns, the --after check, the body reader. */
import type { Message } from '../../../contract/api.js';
import type { Column } from '../../output/output.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';

export const MESSAGE_COLUMNS: Column<Message>[] = [
  { header: 'id', value: (m) => m.id, id: true },
  { header: 'created_at', value: (m) => m.created_at, time: true, label: 'sent' },
  { header: 'conversation', value: (m) => m.conversation.title },
  { header: 'from', value: (m) => (m.sent_via ? `${m.sender.name} via ${m.sent_via}` : m.sender.name) },
  { header: 'body', value: (m) => m.body, flex: true },
];

/** BODY, or `-` / nothing with the text on stdin; checked against the 1,600-character limit before sending. */
export async function readBody(ctx: Context, bodyArg: string | undefined): Promise<string> {
  let body = bodyArg === undefined || bodyArg === '-' ? bodyArg : (await import('../../util/text.js')).givenText(bodyArg, 'The message body');
  if (body === undefined || body === '-') {
    if (body === undefined && ctx.io.stdin.isTTY) throw new UsageError('No message body: pass it as an argument or on stdin.');
    const { readStdinText } = await import('../../util/text-input.js');
    body = await readStdinText(ctx);
  }
  if (!body.trim()) throw new UsageError('The message body is empty.');
  const [{ bodyLength }, { LIMITS }] = await Promise.all([import('../../util/text.js'), import('../../../contract/api.js')]);
  const length = bodyLength(body);
  if (length > LIMITS.bodyMaxChars) {
    throw new UsageError(`The message is ${length} characters; the limit is ${LIMITS.bodyMaxChars}. Nothing was sent.`);
  }
  return body;
}
