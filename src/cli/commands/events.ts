/**
 * `msgctl events listen` and `msgctl events endpoints list|create|delete`:
 * webhook events (api-spec §6; registration and signing in docs/events.md).
 * Registering endpoints acts as an org admin, so it needs an OAuth login.
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { Column } from '../output/output.js';
import type { ListenFlags } from '../events/listen.js';
import { choices, collect, examples, nonNegativeNumber, type Act } from './kit.js';
import { uuidArg } from './uuid-arg.js';
import { EVENT_TYPES } from '../../contract/api.js';

interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[] | null;
  created_at: string;
  secret?: string;
}

const endpointColumns: Column<WebhookEndpoint>[] = [
  { header: 'id', value: (e) => e.id },
  { header: 'url', value: (e) => e.url },
  { header: 'events', value: (e) => (e.events ? e.events.join(',') : 'all') },
  { header: 'created_at', value: (e) => e.created_at },
];

function portNumber(value: string): number {
  const n = nonNegativeNumber(value);
  if (!Number.isInteger(n) || n > 65535) throw new InvalidArgumentError('Must be a port number 0-65535.');
  return n;
}

/** Repeatable --event, each checked against the known types at parse time (exit 2). */
const isEventType = choices(EVENT_TYPES);
function eventTypes(value: string, previous?: string[]): string[] {
  return collect(isEventType(value), previous);
}

export function registerEvents(program: Command, act: Act): void {
  const events = program.command('events').description('Receive and manage signed webhook events');
  examples(events, ['msgctl events listen --register', 'msgctl events endpoints list']);

  const listenCmd = events
    .command('listen')
    .description(
      'Receive webhook events on 127.0.0.1: verify each signature and timestamp, print every new event once ' +
        '(JSON line; readable on a terminal), optionally forward it to a local app. Ctrl-C to stop',
    )
    .option('--port <n>', 'port to listen on (0: any free port)', portNumber, 0)
    .option('--register', 'register this listener as a webhook endpoint for the session (secret kept in memory, endpoint deleted on exit)')
    .option('--event <type>', 'with --register: only this event type (repeatable)', eventTypes)
    .option('--forward-to <url>', 'pass each verified delivery on to a local app, answering the service with its status')
    .option('--secret-stdin', 'read the endpoint\'s signing secret from stdin (else env MSGCTL_WEBHOOK_SECRET or a hidden prompt)')
    .action(
      act(async (ctx, flags: ListenFlags) => {
        const { listen } = await import('../events/listen.js');
        await listen(ctx, flags);
      }),
    );
  examples(listenCmd, [
    'msgctl events listen --register',
    'msgctl events listen --register --forward-to http://localhost:3000/webhooks',
    'MSGCTL_WEBHOOK_SECRET=whsec_… msgctl events listen --port 4242 | jq -c .payload',
  ]);

  const endpoints = events.command('endpoints').description('Webhook endpoints registered by this app and user');
  examples(endpoints, ['msgctl events endpoints list', 'msgctl events endpoints create --url https://example.com/hooks']);

  const list = endpoints
    .command('list')
    .description('List your webhook endpoints (GET /webhook-endpoints)')
    .action(
      act(async (ctx) => {
        const rows = (await ctx.client()).paginate<WebhookEndpoint>('/webhook-endpoints', {}, { signal: ctx.signal });
        await ctx.out.list(rows, endpointColumns, { empty: 'No webhook endpoints.' });
      }),
    );
  examples(list, ['msgctl events endpoints list', 'msgctl events endpoints list --json | jq -r .url']);

  const create = endpoints
    .command('create')
    .description('Register a webhook endpoint (POST /webhook-endpoints); prints its signing secret once')
    .requiredOption('--url <url>', 'where the service POSTs events')
    .option('--event <type>', 'only this event type (repeatable; default all)', eventTypes)
    .option('--idempotency-key <uuid>', 'make a retried create safe: the service replays the first result for 24 h')
    .action(
      act(async (ctx, flags: { url: string; event?: string[]; idempotencyKey?: string }) => {
        const body = { url: flags.url, ...(flags.event?.length ? { events: flags.event } : {}) };
        const endpoint = await (await ctx.client()).post<WebhookEndpoint>(
          '/webhook-endpoints',
          body,
          ctx.idempotencyKey(flags.idempotencyKey),
          ctx.signal,
        );
        await ctx.out.resource(endpoint, [...endpointColumns, { header: 'secret', value: (e) => e.secret }]);
        ctx.out.info('The secret is shown only now: store it where your receiver reads it (e.g. MSGCTL_WEBHOOK_SECRET).');
      }),
    );
  examples(create, [
    'msgctl events endpoints create --url https://example.com/hooks --event export.ready',
    'msgctl events endpoints create --url http://127.0.0.1:4242/webhooks --json | jq -r .secret',
  ]);

  const del = endpoints
    .command('delete')
    .description('Delete a webhook endpoint (DELETE /webhook-endpoints/{id})')
    .argument('<endpoint-id>', 'endpoint (UUID)', uuidArg('endpoint id'))
    .action(
      act(async (ctx, id: string) => {
        await (await ctx.client()).delete(`/webhook-endpoints/${id}`, ctx.signal);
        ctx.out.info(`Deleted webhook endpoint ${id}.`);
      }),
    );
  examples(del, ['msgctl events endpoints delete "$ENDPOINT_ID"']);
}
