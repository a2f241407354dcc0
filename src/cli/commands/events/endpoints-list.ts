/** `msgctl events endpoints list` (GET /webhook-endpoints). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Act } from '../kit.js';
import { endpointColumns, type WebhookEndpoint } from './common.js';

export type EndpointsListOptions = Record<string, never>;

export async function run(ctx: Context, _opts: EndpointsListOptions = {}): Promise<void> {
  const rows = (await ctx.client()).paginate<WebhookEndpoint>('/webhook-endpoints', {}, { signal: ctx.signal });
  await ctx.out.list(rows, endpointColumns, { empty: 'No webhook endpoints.' });
}

export function register(endpoints: Command, act: Act): void {
  const list = endpoints
    .command('list')
    .description('List your webhook endpoints (GET /webhook-endpoints)')
    .action(act((ctx) => run(ctx)));
  examples(list, ['msgctl events endpoints list', 'msgctl events endpoints list --json | jq -r .url']);
}
