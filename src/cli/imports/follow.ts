/**
 * Following an import until the service has finished it (status other than
 * `running`), polling GET /patient-imports/{id}. Polls start quick, so small
 * imports report at once, and slow down while nothing moves, so a long one
 * costs a request every couple of seconds.
 */
import type { ApiClient } from '../api/client.js';
import type { PatientImport } from '../../contract/api.js';
import { sleep } from '../util/sleep.js';

const FIRST_POLL_MS = 100;
const MAX_POLL_MS = 2000;

export function processedRows(i: Pick<PatientImport, 'created' | 'matched' | 'failed'>): number {
  return i.created + i.matched + i.failed;
}

export async function waitForImport(
  client: ApiClient,
  importId: string,
  options: { signal?: AbortSignal; onUpdate?: (current: PatientImport) => void } = {},
): Promise<PatientImport> {
  let current: PatientImport | undefined;
  let delay = FIRST_POLL_MS;
  const path = `/patient-imports/${encodeURIComponent(importId)}`;
  for (;;) {
    if (current && current.status !== 'running') return current;
    if (current) await sleep(delay, options.signal);
    const previous = current;
    current = await client.get<PatientImport>(path, undefined, options.signal);
    options.onUpdate?.(current);
    const moved = previous === undefined || processedRows(current) !== processedRows(previous);
    if (!moved) delay = Math.min(MAX_POLL_MS, Math.round(delay * 1.5));
  }
}
