/**
 * Rules the sandbox applies the same way on every endpoint (issue 14):
 * the credential-less inbound answer names no patient, null and unknown
 * body fields, and id as the tiebreaker of equal creation times.
 */
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${sandbox.current.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${sandbox.current.credentials.api_key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('/_sandbox/inbound', () => {
  it('answers with what the caller sent and the message id, never the patient who has that phone', async () => {
    // Lakeside's Lou shares Ada's phone; anyone (no credential) can post to Lakeside's number.
    const res = await fetch(`${sandbox.current.origin}/_sandbox/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: '(555) 555-0123', to: '+15555550200', body: 'Who am I?' }),
    });
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      id: expect.any(String),
      from: '+15555550123',
      to: '+15555550200',
      body: 'Who am I?',
      created_at: expect.any(String),
    });
    expect(text).not.toMatch(/Lou|Lakeside|patient/i);
  });
});
