/** `msgctl events listen`: receive, verify and print webhook events until Ctrl-C; the receiver is src/cli/events. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { ListenFlags } from '../../events/listen.js';
import { examples, portNumber, type Act } from '../kit.js';
import { eventTypes } from './common.js';

export type EventsListenOptions = ListenFlags;

export async function run(ctx: Context, opts: EventsListenOptions): Promise<void> {
  const { listen } = await import('../../events/listen.js');
  await listen(ctx, opts);
}

export function register(events: Command, act: Act, runF: typeof run = run): void {
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
    .action(act((ctx, flags: EventsListenOptions) => runF(ctx, flags)));
  examples(listenCmd, [
    'msgctl events listen --register',
    'msgctl events listen --register --forward-to http://localhost:3000/webhooks',
    'MSGCTL_WEBHOOK_SECRET=whsec_… msgctl events listen --port 4242 | jq -c .payload',
  ]);
}
