/** `msgctl events endpoints list` (GET /webhook-endpoints). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Act, formatOptions } from '../kit.js';
import { endpointColumns } from './common.js';
import { WEBHOOK_ENDPOINT } from '../../api/shapes.js';

export type EndpointsListOptions = Record<string, never>;

export async function run(ctx: Context, _opts: EndpointsListOptions = {}): Promise<void> {
  const rows = (await ctx.client()).paginate('/webhook-endpoints', {}, { signal: ctx.signal, shape: WEBHOOK_ENDPOINT });
  await ctx.out.list(rows, endpointColumns, { empty: 'No webhook endpoints.', noun: 'endpoints' });
}

export function register(endpoints: Command, act: Act, runF: typeof run = run): void {
  const list = endpoints
    .command('list')
    .description('List your webhook endpoints (GET /webhook-endpoints)')
    .action(act((ctx) => runF(ctx)));
  formatOptions(list, FIELDS.webhookEndpoint);
  examples(list, ['msgctl events endpoints list', 'msgctl events endpoints list --json | jq -r .url']);
}
