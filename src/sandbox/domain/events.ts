/**
 * Webhook events (api-spec §6): turns what happened in the sandbox (domain
 * events on sb.events) into §6.1 envelopes, and picks the endpoints that get
 * each one. An endpoint gets an event when its app user is in the event's
 * audience — the conversation's participants at that moment (for a removal:
 * including the one removed, who then hears nothing more), or, for
 * export.ready, the app and user that started the export. Payloads carry ids
 * only. Delivery itself (signing, retries) is workers/webhook-delivery.ts.
 */
import type { SandboxContext } from '../context.js';
import type { MessageRecord } from './records.js';
import { participantIds, type ParticipantChange } from './participants.js';
import type { ReactionChange } from './reactions.js';
import type { ExportRecord } from './exports.js';
import { webhookEndpoints, type EventType } from './webhooks.js';

export interface EventEnvelope {
  id: string;
  type: EventType;
  occurred_at: string;
  organization_id: string;
  delivery_attempt: number;
  payload: Record<string, string>;
}

export interface EventRecord {
  id: string;
  type: EventType;
  orgId: string;
  occurred_at: string;
  payload: Record<string, string>;
}

export interface DeliveryRecord {
  /** eventId + ':' + endpointId */
  id: string;
  eventId: string;
  endpointId: string;
  /** Attempts made so far. */
  attempts: number;
  state: 'pending' | 'delivered' | 'failed';
  /** Sandbox time of the next attempt while pending. */
  nextAttemptMs: number | null;
  /** Outcome of the latest attempt: HTTP status, or null with an error for a connection failure. */
  lastStatus: number | null;
  lastError: string | null;
}

export function webhookEvents(sb: SandboxContext) {
  return sb.store.table<EventRecord>('webhook_events');
}

export function webhookDeliveries(sb: SandboxContext) {
  return sb.store.table<DeliveryRecord>('webhook_deliveries');
}

export function envelopeOf(event: EventRecord, attempt: number): EventEnvelope {
  return {
    id: event.id,
    type: event.type,
    occurred_at: event.occurred_at,
    organization_id: event.orgId,
    delivery_attempt: attempt,
    payload: event.payload,
  };
}

interface Occurrence {
  type: EventType;
  orgId: string;
  occurredMs: number;
  payload: Record<string, string>;
  /** App users who may hear about it. */
  audience: string[];
  /** Only this app's endpoints (export.ready). */
  clientId?: string;
}

/** Records the event and one pending delivery per interested endpoint; emits `webhook.delivery` for each. */
export function publishEvent(sb: SandboxContext, o: Occurrence): EventRecord | null {
  const endpoints = webhookEndpoints(sb).filter(
    (e) =>
      e.orgId === o.orgId &&
      o.audience.includes(e.userId) &&
      (o.clientId === undefined || e.clientId === o.clientId) &&
      (e.events === null || e.events.includes(o.type)),
  );
  if (endpoints.length === 0) return null;
  const event = webhookEvents(sb).insert({
    id: sb.newId(),
    type: o.type,
    orgId: o.orgId,
    occurred_at: sb.clock.iso(o.occurredMs),
    payload: o.payload,
  });
  const now = sb.clock.now();
  for (const endpoint of endpoints) {
    const delivery = webhookDeliveries(sb).insert({
      id: `${event.id}:${endpoint.id}`,
      eventId: event.id,
      endpointId: endpoint.id,
      attempts: 0,
      state: 'pending',
      nextAttemptMs: now,
      lastStatus: null,
      lastError: null,
    });
    sb.events.emit('webhook.delivery', delivery);
  }
  sb.store.changed();
  return event;
}

/** Subscribes the fan-out to the sandbox's domain events; returns the unsubscribe function. */
export function startEventFanOut(sb: SandboxContext): () => void {
  const handlers: Record<string, (arg: any) => void> = {
    'message.created': (m: MessageRecord) => {
      const conversation = sb.db.conversations.get(m.conversationId);
      if (!conversation) return;
      publishEvent(sb, {
        type: 'conversation.message.created',
        orgId: m.orgId,
        occurredMs: m.createdMs,
        payload: { conversation_id: m.conversationId, message_id: m.id, sender_id: m.senderId },
        audience: participantIds(sb, conversation),
      });
    },
    'reaction.created': (c: ReactionChange) => reactionEvent('message.reaction.created', c),
    'reaction.deleted': (c: ReactionChange) => reactionEvent('message.reaction.deleted', c),
    'participant.added': (c: ParticipantChange) => participantEvent('conversation.participant.added', c),
    'participant.removed': (c: ParticipantChange) => participantEvent('conversation.participant.removed', c),
    'export.ready': (e: ExportRecord) => {
      publishEvent(sb, {
        type: 'export.ready',
        orgId: e.orgId,
        occurredMs: Date.parse(e.ready_at ?? e.created_at),
        payload: { export_id: e.id, conversation_id: e.conversationId, status: e.status },
        audience: [e.userId],
        clientId: e.clientId,
      });
    },
  };

  function reactionEvent(type: EventType, { reaction, occurredMs }: ReactionChange): void {
    const conversation = sb.db.conversations.get(reaction.conversationId);
    if (!conversation) return;
    publishEvent(sb, {
      type,
      orgId: reaction.orgId,
      occurredMs,
      payload: {
        conversation_id: reaction.conversationId,
        message_id: reaction.messageId,
        user_id: reaction.userId,
        emoji: reaction.emoji,
      },
      audience: participantIds(sb, conversation),
    });
  }

  function participantEvent(type: EventType, change: ParticipantChange): void {
    publishEvent(sb, {
      type,
      orgId: change.conversation.orgId,
      occurredMs: change.occurredMs,
      payload: { conversation_id: change.conversation.id, user_id: change.userId },
      audience: change.audience,
    });
  }

  // With no endpoint registered anywhere there is nobody to tell: skip working out audiences.
  const subscribed = Object.entries(handlers).map(([name, handler]) => {
    const listener = (arg: unknown) => {
      if (webhookEndpoints(sb).size > 0) handler(arg);
    };
    sb.events.on(name, listener);
    return [name, listener] as const;
  });
  return () => {
    for (const [name, listener] of subscribed) sb.events.off(name, listener);
  };
}
