/** `msgctl events endpoints delete <endpoint-id>` (DELETE /webhook-endpoints/{id}). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Act } from '../kit.js';
import { uuidArg } from '../uuid-arg.js';

export interface EndpointsDeleteOptions {
  endpointId: string;
}

export async function run(ctx: Context, opts: EndpointsDeleteOptions): Promise<void> {
  await (await ctx.client()).delete(`/webhook-endpoints/${opts.endpointId}`, ctx.signal);
  ctx.out.info(`Deleted webhook endpoint ${opts.endpointId}.`);
}

export function register(endpoints: Command, act: Act, runF: typeof run = run): void {
  const del = endpoints
    .command('delete')
    .description('Delete a webhook endpoint (DELETE /webhook-endpoints/{id})')
    .argument('<endpoint-id>', 'endpoint (UUID)', uuidArg('endpoint id'))
    .action(act((ctx, endpointId: string) => runF(ctx, { endpointId })));
  examples(del, ['msgctl events endpoints delete "$ENDPOINT_ID"']);
}
