/** `msgctl events listen` and `msgctl events endpoints list|create|delete`: one module per verb. */
import type { Command } from 'commander';
import { examples, type Act } from '../kit.js';
import * as listen from './listen.js';
import * as endpointsList from './endpoints-list.js';
import * as endpointsCreate from './endpoints-create.js';
import * as endpointsDelete from './endpoints-delete.js';

export function registerEvents(program: Command, act: Act): void {
  const events = program.command('events').description('Receive and manage signed webhook events');
  examples(events, ['msgctl events listen --register', 'msgctl events endpoints list']);
  listen.register(events, act);

  const endpoints = events.command('endpoints').description('Webhook endpoints registered by this app and user');
  examples(endpoints, ['msgctl events endpoints list', 'msgctl events endpoints create --url https://example.com/hooks']);
  for (const verb of [endpointsList, endpointsCreate, endpointsDelete]) verb.register(endpoints, act);
}
