/**
 * Delivers webhook events (docs/events.md "Delivery"): each pending delivery
 * is POSTed to its endpoint as the §6.1 envelope, signed per Standard
 * Webhooks with a fresh timestamp on every attempt. A non-2xx answer, a
 * redirect, a timeout or a connection failure is retried after 1, 2, 4 and
 * 8 seconds of sandbox time (5 attempts in all), with the same event id and
 * `delivery_attempt` counting up. Deliveries left pending by a previous run
 * (--data) resume.
 */
import type { SandboxContext } from '../context.js';
import { envelopeOf, startEventFanOut, webhookDeliveries, webhookEvents, type DeliveryRecord } from '../domain/events.js';
import { webhookEndpoints } from '../domain/webhooks.js';
import { signatureHeaders } from '../webhooks/signing.js';

/** Wait before attempt n+1 after attempt n failed; its length is the number of retries. */
export const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const ATTEMPT_TIMEOUT_MS = 10_000;

export function startWebhookDelivery(sb: SandboxContext): () => void {
  const stopFanOut = startEventFanOut(sb);
  const inFlight = new AbortController();
  let stopped = false;

  const schedule = (deliveryId: string, afterMs: number) => {
    if (!stopped) sb.later(afterMs, () => void attempt(deliveryId));
  };

  async function attempt(deliveryId: string): Promise<void> {
    const delivery = webhookDeliveries(sb).get(deliveryId);
    if (!delivery || delivery.state !== 'pending') return;
    const endpoint = webhookEndpoints(sb).get(delivery.endpointId);
    const event = webhookEvents(sb).get(delivery.eventId);
    if (!endpoint || !event) {
      finish(delivery, 'failed', null, 'the endpoint was deleted');
      return;
    }
    delivery.attempts += 1;
    const body = JSON.stringify(envelopeOf(event, delivery.attempts));
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signatureHeaders(endpoint.secret, event.id, body) },
        body,
        redirect: 'manual',
        signal: AbortSignal.any([inFlight.signal, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)]),
      });
      status = response.status;
      await response.body?.cancel();
    } catch (err) {
      error = describe(err);
    }
    if (stopped) return;
    sb.options.log?.(`webhook ${event.type} ${event.id} -> ${endpoint.url} attempt ${delivery.attempts}: ${status ?? error}`);
    if (status !== null && status >= 200 && status < 300) {
      finish(delivery, 'delivered', status, null);
    } else if (delivery.attempts >= MAX_ATTEMPTS) {
      finish(delivery, 'failed', status, error);
    } else {
      const wait = RETRY_DELAYS_MS[delivery.attempts - 1]!;
      delivery.lastStatus = status;
      delivery.lastError = error;
      delivery.nextAttemptMs = sb.clock.now() + wait;
      // Held across the fetch above (another turn of the event loop): written back explicitly.
      webhookDeliveries(sb).put(delivery);
      sb.store.changed();
      schedule(delivery.id, wait);
    }
  }

  function finish(delivery: DeliveryRecord, state: 'delivered' | 'failed', status: number | null, error: string | null): void {
    delivery.state = state;
    delivery.lastStatus = status;
    delivery.lastError = error;
    delivery.nextAttemptMs = null;
    webhookDeliveries(sb).put(delivery);
    sb.store.changed();
  }

  const onQueued = (delivery: DeliveryRecord) => schedule(delivery.id, 0);
  sb.events.on('webhook.delivery', onQueued);
  const now = sb.clock.now();
  for (const delivery of webhookDeliveries(sb).values()) {
    if (delivery.state === 'pending') schedule(delivery.id, Math.max(0, (delivery.nextAttemptMs ?? now) - now));
  }

  return () => {
    stopped = true;
    inFlight.abort();
    stopFanOut();
    sb.events.off('webhook.delivery', onQueued);
  };
}

function describe(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return `timed out after ${ATTEMPT_TIMEOUT_MS / 1000}s`;
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
}
