/**
 * `msgctl events listen` (docs/events.md): runs the local receiver until
 * Ctrl-C, with its signing secret from one of three places, never argv:
 *
 * 1. `--register`: registers the receiver's URL as a webhook endpoint through
 *    the API, keeps the returned secret in memory only, and deletes the
 *    endpoint again on exit;
 * 2. env MSGCTL_WEBHOOK_SECRET, for an endpoint registered beforehand;
 * 3. `--secret-stdin` (piped), or a hidden prompt on a terminal.
 *
 * Each new verified event is one JSON line on stdout (a short readable line
 * on a terminal); everything else is a note on stderr.
 */
import type { Context } from '../context.js';
import { cell, terminalSafe } from '../output/terminal-text.js';
import { displayWidth } from '../output/text-width.js';
import type { TimeView } from '../output/time-view.js';
import { UsageError } from '../errors.js';
import { secretKey } from '../webhooks/signature.js';
import { startReceiver, type ReceivedEvent, type Receiver } from './receiver.js';
import { CREATED_WEBHOOK_ENDPOINT } from '../api/shapes.js';
import { shellWord } from '../util/shell-word.js';

export interface ListenFlags {
  port: number;
  register?: boolean;
  event?: string[];
  forwardTo?: string;
  secretStdin?: boolean;
}

interface RegisteredEndpoint {
  id: string;
  url: string;
  secret?: string;
}

export async function listen(ctx: Context, flags: ListenFlags): Promise<void> {
  const forwardTo = flags.forwardTo ? parseForwardUrl(flags.forwardTo) : undefined;
  if (flags.event?.length && !flags.register) {
    throw new UsageError('--event filters what a registered endpoint receives: use it with --register.');
  }
  // Read the secret before binding, so a bad secret fails fast and nothing is left listening.
  const secret = flags.register ? null : await readSecret(ctx, flags);
  const pretty = ctx.out.mode === 'table';
  const times = pretty ? await ctx.out.times() : null;
  const receiver = await startReceiver({
    port: flags.port,
    forwardTo,
    onEvent: (event) => (times ? ctx.out.write(readableEvent(event, times, ctx.out.terminalWidth) + '\n') : ctx.out.json(event)),
    onNote: (line) => ctx.io.stderr.write(`${terminalSafe(line, { keepLines: true })}\n`),
  }).catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`Cannot listen on 127.0.0.1:${flags.port}: ${err.code ?? err.message}.`, ['Pick another --port, or 0 for any free one.']);
  });

  let endpoint: RegisteredEndpoint | null = null;
  try {
    if (secret) receiver.setSecret(secret);
    else endpoint = await register(ctx, receiver, flags.event);
    ctx.out.info(`Listening on ${receiver.url}${forwardTo ? `, forwarding to ${forwardTo}` : ''}. Ctrl-C to stop.`);
    await untilAborted(ctx.signal);
  } finally {
    await receiver.close();
    if (endpoint) await unregister(ctx, endpoint);
  }
}

async function readSecret(ctx: Context, flags: ListenFlags): Promise<string> {
  let secret = ctx.env.MSGCTL_WEBHOOK_SECRET?.trim();
  if (!secret && (flags.secretStdin || ctx.interactive)) {
    const { readSecret: readFromUser } = await import('../auth/read-secret.js');
    secret = await readFromUser(ctx, 'webhook signing secret (whsec_…)');
  }
  if (!secret) {
    throw new UsageError('events listen needs the endpoint\'s signing secret to verify deliveries.', [
      'Let msgctl register a temporary endpoint and keep its secret in memory: msgctl events listen --register',
      'or set MSGCTL_WEBHOOK_SECRET, or pipe it: ... | msgctl events listen --secret-stdin',
    ]);
  }
  try {
    secretKey(secret);
  } catch (err) {
    throw new UsageError(`The webhook secret is not usable: ${(err as Error).message}`);
  }
  return secret;
}

async function register(ctx: Context, receiver: Receiver, events: string[] | undefined): Promise<RegisteredEndpoint> {
  const client = await ctx.client();
  const endpoint = await client.post(
    '/webhook-endpoints',
    { url: receiver.url, ...(events?.length ? { events } : {}) },
    ctx.freshIdempotencyKey(),
    ctx.signal,
    CREATED_WEBHOOK_ENDPOINT,
  );
  receiver.setSecret(endpoint.secret);
  ctx.out.info(`Registered webhook endpoint ${cell(endpoint.id)} (deleted again when this stops).`);
  return endpoint;
}

async function unregister(ctx: Context, endpoint: RegisteredEndpoint): Promise<void> {
  try {
    const client = await ctx.client();
    // ctx.signal has fired by now; the clean-up gets its own short deadline.
    await client.delete(`/webhook-endpoints/${encodeURIComponent(endpoint.id)}`, AbortSignal.timeout(5000));
    ctx.out.info(`Deleted webhook endpoint ${cell(endpoint.id)}.`);
  } catch (err) {
    ctx.out.warn(`could not delete webhook endpoint ${cell(endpoint.id)}: ${cell((err as Error).message)}. Remove it with: msgctl events endpoints delete ${shellWord(cell(endpoint.id))} --yes`);
  }
}

function parseForwardUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--forward-to must be an absolute URL such as http://localhost:3000/webhooks (got "${raw}").`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--forward-to must be an http:// or https:// URL.');
  return url;
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/**
 * An event for a person at a terminal: its time in the one labelled zone and its type (and the
 * attempt, after a retry) on a line, then its ids and fields, `key=value` pairs wrapped to the
 * width under it and never cut (an id must stay whole to be copied). One line of ~240 columns
 * folded a UUID across the screen's edge.
 */
export function readableEvent(event: ReceivedEvent, times: Pick<TimeView, 'clock'>, width: number): string {
  const payload = event.payload && typeof event.payload === 'object' ? (event.payload as Record<string, unknown>) : {};
  const pairs = [...Object.entries(payload).map(([k, v]) => `${k}=${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`), `event=${String(event.id)}`];
  const when = typeof event.occurred_at === 'string' ? cell(times.clock(event.occurred_at)) : '';
  const attempt = event.delivery_attempt && event.delivery_attempt > 1 ? `  (attempt ${event.delivery_attempt})` : '';
  const lines = [`${when}  ${cell(String(event.type))}${attempt}`];
  let line = '';
  for (const pair of pairs.map((p) => cell(p))) {
    if (line && displayWidth(`${line}  ${pair}`) > width - 2) {
      lines.push(`  ${line}`);
      line = pair;
    } else line = line ? `${line}  ${pair}` : pair;
  }
  if (line) lines.push(`  ${line}`);
  return lines.join('\n');
}
