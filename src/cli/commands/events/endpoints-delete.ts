/**
 * `msgctl events endpoints delete <endpoint-id>`: asks first on a terminal, --yes otherwise
 * (DELETE /webhook-endpoints/{id}). Deliveries to the URL stop, and an endpoint's signing
 * secret is shown only when it is created, so a deletion cannot be undone.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Act } from '../kit.js';
import { uuidArg } from '../uuid-arg.js';

export interface EndpointsDeleteOptions {
  endpointId: string;
  yes?: boolean;
}

export async function run(ctx: Context, opts: EndpointsDeleteOptions): Promise<void> {
  const path = `/webhook-endpoints/${opts.endpointId}`;
  const { confirmDestructive } = await import('../../util/confirm.js');
  await confirmDestructive(ctx, {
    yes: opts.yes,
    action: `Delete webhook endpoint ${opts.endpointId}`,
    // The person answering knows an endpoint by its URL. The API has no GET of one endpoint: its list names it.
    question: async () => {
      const { WEBHOOK_ENDPOINT } = await import('../../api/shapes.js');
      const endpoints = (await ctx.client()).paginate('/webhook-endpoints', {}, { signal: ctx.signal, shape: WEBHOOK_ENDPOINT });
      let url: string | undefined;
      for await (const endpoint of endpoints) {
        if (endpoint.id !== opts.endpointId) continue;
        url = endpoint.url;
        break;
      }
      const named = url === undefined ? opts.endpointId : `${url} (${opts.endpointId})`;
      return `Delete webhook endpoint ${named}? Deliveries to it stop, and its signing secret cannot be shown again.`;
    },
  });
  await (await ctx.client()).delete(path, ctx.signal);
  if (ctx.out.mode === 'json') await ctx.out.json({ id: opts.endpointId, deleted: true });
  else ctx.out.info(`Deleted webhook endpoint ${opts.endpointId}.`);
}

export function register(endpoints: Command, act: Act, runF: typeof run = run): void {
  const del = endpoints
    .command('delete')
    .description('Delete a webhook endpoint (asks first on a terminal, naming its URL; --yes otherwise)')
    .argument('<endpoint-id>', 'endpoint (UUID)', uuidArg('endpoint id'))
    .option('-y, --yes', 'do not ask for confirmation')
    .action(act((ctx, endpointId: string, flags: { yes?: boolean }) => runF(ctx, { endpointId, yes: flags.yes })));
  examples(del, ['msgctl events endpoints delete "$ENDPOINT_ID" --yes']);
}
