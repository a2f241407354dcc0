/**
 * `msgctl sandbox reply`: checks the numbers and body here (exit 2, nothing
 * sent), then posts them to the running sandbox's /_sandbox/inbound, which
 * stores the patient's reply as the phone network would deliver it.
 */
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { controlRequest, sandboxControl, type SandboxControl } from './control.js';
import type { Shape } from '../api/answer-shape.js';

export interface ReplyInput {
  from: string;
  to?: string;
  body: string;
  region?: string;
}

/** What the sandbox answers: the new message's id and what was sent (it names no patient: no credential was used). */
export interface InboundReceipt {
  id: string;
  from: string;
  to: string;
  body: string;
  created_at: string;
}

const INBOUND_RECEIPT: Shape<InboundReceipt> = {
  name: 'the received reply',
  fields: { id: 'string', from: 'string', to: 'string', body: 'string', created_at: 'string' },
};

export async function sendReply(ctx: Context, input: ReplyInput): Promise<void> {
  const { normalizePhone } = await import('../util/phone.js');
  const region = await ctx.region(input.region);
  const number = (flag: string, raw: string) => {
    const result = normalizePhone(raw, region);
    if (!result.ok) throw new UsageError(`${flag} "${raw}" is not a usable phone number: ${result.reason}.`, [`Give it in E.164 (+15555550123) or pass --region for a national number.`]);
    return result.e164;
  };
  const from = number('--from', input.from);
  const to = input.to === undefined ? undefined : number('--to', input.to);
  if (!input.body.trim()) throw new UsageError('The reply is empty: give the text the patient sends.');

  const control = await sandboxControl(ctx);
  const receipt = await controlRequest(ctx, control, 'POST', '/_sandbox/inbound', INBOUND_RECEIPT, {
    from,
    to: to ?? (await firstClinicNumber(ctx, control)),
    body: input.body,
  });
  await ctx.out.resource(receipt, [
    { header: 'id', value: (r) => r.id, fixed: true },
    { header: 'from', value: (r) => r.from },
    { header: 'to', value: (r) => r.to },
    { header: 'body', value: (r) => r.body, flex: true },
    { header: 'created_at', value: (r) => r.created_at, time: true },
  ]);
  ctx.out.info(`The sandbox received the patient's text; read it with \`msgctl messages list --after 1h\` (conversation on ${receipt.to}).`);
}

/** The running sandbox's first clinic number (Front Desk), from its seeded credentials. */
async function firstClinicNumber(ctx: Context, control: SandboxControl): Promise<string> {
  const credentials = await controlRequest<{ phone_numbers?: string[] }>(ctx, control, 'GET', '/_sandbox/credentials', { name: "the sandbox's credentials", fields: { phone_numbers: 'array?' } });
  const first = credentials.phone_numbers?.[0];
  if (!first) throw new UsageError('The sandbox lists no clinic number: pass --to.');
  return first;
}
