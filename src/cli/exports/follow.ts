/**
 * Waiting for an export to finish: polls GET /exports/{id} with a growing
 * pause (quick at first, at most every 2 s) until it is no longer running.
 */
import type { ApiClient } from '../api/client.js';
import type { Export } from '../../contract/api.js';
import { sleep } from '../util/sleep.js';

const FIRST_POLL_MS = 250;
const MAX_POLL_MS = 2000;

export async function waitForExport(client: ApiClient, id: string, signal: AbortSignal, first?: Export): Promise<Export> {
  let current = first ?? (await client.get<Export>(`/exports/${id}`, undefined, signal));
  let pause = FIRST_POLL_MS;
  while (current.status === 'running') {
    await sleep(pause, signal);
    pause = Math.min(MAX_POLL_MS, pause * 2);
    current = await client.get<Export>(`/exports/${id}`, undefined, signal);
  }
  return current;
}
