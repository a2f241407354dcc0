/**
 * Starts an in-process sandbox on 127.0.0.1 for a test file, so tests can
 * both drive it over HTTP (through the built CLI) and inspect its state.
 */
import { afterAll, beforeAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/start.js';
import type { SandboxOptions } from '../../src/sandbox/context.js';

export function useSandbox(options: Partial<SandboxOptions> = {}): { current: RunningSandbox } {
  const holder = {} as { current: RunningSandbox };
  beforeAll(async () => {
    holder.current = await startSandbox({ rateLimit: 0, ...options });
    holder.current.testing.recordRequests();
  });
  afterAll(async () => {
    await holder.current?.close();
  });
  return holder;
}

/** Runs `fn` while the sandbox serves at most `records` per page (so a short list still spans many pages). */
export async function withPageCap<T>(sandbox: RunningSandbox, records: number, fn: () => Promise<T>): Promise<T> {
  sandbox.testing.capPageSize(records);
  try {
    return await fn();
  } finally {
    sandbox.testing.capPageSize(null);
  }
}

/**
 * One API request to the sandbox over HTTP, as a client sends it: the bearer token, and with a
 * body JSON and a fresh Idempotency-Key. Answers the status and the parsed body (undefined if empty).
 */
export async function apiCall(sandbox: RunningSandbox, method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
