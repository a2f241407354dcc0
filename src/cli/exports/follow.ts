/**
 * Waiting for an export to finish: polls GET /exports/{id} with a growing
 * pause (quick at first, at most every 2 s) until it is no longer running.
 */
import type { ApiClient } from '../api/client.js';
import type { Export } from '../../contract/api.js';
import type { Output } from '../output/output.js';
import { sleep } from '../util/sleep.js';
import { EXPORT } from '../api/shapes.js';

const FIRST_POLL_MS = 250;
const MAX_POLL_MS = 2000;

/** `out`: where progress shows while it runs (the one style of long work, output/progress.ts). */
export async function waitForExport(client: ApiClient, id: string, signal: AbortSignal, first?: Export, out?: Output): Promise<Export> {
  let current = first ?? (await client.get(`/exports/${encodeURIComponent(id)}`, undefined, signal, EXPORT));
  if (current.status !== 'running') return current;
  const progress = await out?.progress({ label: 'exporting' });
  try {
    let pause = FIRST_POLL_MS;
    while (current.status === 'running') {
      await sleep(pause, signal);
      pause = Math.min(MAX_POLL_MS, pause * 2);
      current = await client.get(`/exports/${encodeURIComponent(id)}`, undefined, signal, EXPORT);
      progress?.update(0);
    }
  } finally {
    progress?.stop();
  }
  return current;
}
