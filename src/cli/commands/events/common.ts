/**
 * What the `msgctl events` verbs share: webhook endpoint columns and the
 * --event/--port parsers (api-spec §6; registration and signing in
 * docs/events.md). Registering endpoints acts as an org admin, so it needs an
 * OAuth login.
 */
import type { Column } from '../../output/output.js';
import { choices, collect } from '../kit.js';
import { EVENT_TYPES } from '../../../contract/api.js';

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[] | null;
  created_at: string;
  secret?: string;
}

export const endpointColumns: Column<WebhookEndpoint>[] = [
  { header: 'id', value: (e) => e.id, id: true },
  { header: 'url', value: (e) => e.url },
  { header: 'events', value: (e) => (e.events ? e.events.join(',') : 'all') },
  { header: 'created_at', value: (e) => e.created_at, time: true, drop: 1 },
];

/** Repeatable --event, each checked against the known types at parse time (exit 2). */
const isEventType = choices(EVENT_TYPES);
export function eventTypes(value: string, previous?: string[]): string[] {
  return collect(isEventType(value), previous);
}
