/** `msgctl events endpoints create --url …` (POST /webhook-endpoints); prints its signing secret once. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Act } from '../kit.js';
import { endpointColumns, eventTypes } from './common.js';
import { CREATED_WEBHOOK_ENDPOINT } from '../../api/shapes.js';

export interface EndpointsCreateOptions {
  url: string;
  event?: string[];
  idempotencyKey?: string;
}

export async function run(ctx: Context, opts: EndpointsCreateOptions): Promise<void> {
  const body = { url: opts.url, ...(opts.event?.length ? { events: opts.event } : {}) };
  const endpoint = await (await ctx.client()).post(
    '/webhook-endpoints',
    body,
    ctx.idempotencyKey(opts.idempotencyKey),
    ctx.signal,
    CREATED_WEBHOOK_ENDPOINT,
  );
  await ctx.out.resource(endpoint, [...endpointColumns, { header: 'secret', value: (e) => e.secret }]);
  ctx.out.info('The secret is shown only now: store it where your receiver reads it (e.g. MSGCTL_WEBHOOK_SECRET).');
}

export function register(endpoints: Command, act: Act, runF: typeof run = run): void {
  const create = endpoints
    .command('create')
    .description('Register a webhook endpoint (POST /webhook-endpoints); prints its signing secret once')
    .requiredOption('--url <url>', 'where the service POSTs events')
    .option('--event <type>', 'only this event type (repeatable; default all)', eventTypes)
    .option('--idempotency-key <uuid>', 'make a retried create safe: the service replays the first result for 24 h')
    .action(act((ctx, flags: EndpointsCreateOptions) => runF(ctx, flags)));
  examples(create, [
    'msgctl events endpoints create --url https://example.com/hooks --event export.ready',
    'msgctl events endpoints create --url http://127.0.0.1:4242/webhooks --json | jq -r .secret',
  ]);
}
