/**
 * Hands a verified delivery on to a local app exactly as it arrived: the
 * same body bytes and the signature headers, so the app can verify it with
 * the same secret, as if the service had called it directly.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { HEADER_ID, HEADER_SIGNATURE, HEADER_TIMESTAMP } from '../webhooks/signature.js';

const FORWARD_TIMEOUT_MS = 10_000;
const PASSED_HEADERS = ['content-type', 'user-agent', HEADER_ID, HEADER_TIMESTAMP, HEADER_SIGNATURE];

export interface Forwarded {
  status: number | null;
  body: string;
  contentType: string | null;
  error: string | null;
}

export async function forwardDelivery(target: URL, headers: IncomingHttpHeaders, body: string): Promise<Forwarded> {
  const passed: Record<string, string> = {};
  for (const name of PASSED_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string') passed[name] = value;
  }
  try {
    const response = await fetch(target, {
      method: 'POST',
      headers: passed,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    return { status: response.status, body: await response.text(), contentType: response.headers.get('content-type'), error: null };
  } catch (err) {
    const e = err as { name?: string; message?: string; cause?: { code?: string } };
    const error = e.name === 'TimeoutError' ? `no answer within ${FORWARD_TIMEOUT_MS / 1000}s` : (e.cause?.code ?? e.message ?? String(err));
    return { status: null, body: '', contentType: null, error };
  }
}
