/**
 * Following an import until the service has finished it (status other than
 * `running`), polling GET /patient-imports/{id}. Polls start quick, so small
 * imports report at once, and slow down while nothing moves, so a long one
 * costs a request every couple of seconds.
 */
import type { ApiClient } from '../api/client.js';
import type { PatientImport } from '../../contract/api.js';
import { sleep } from '../util/sleep.js';
import { importFromBody, type ServiceResults } from './results.js';
import { IMPORT } from '../api/shapes.js';
import { answerError, wrongShape } from '../api/not-the-api.js';

const FIRST_POLL_MS = 100;
const MAX_POLL_MS = 2000;

interface FollowOptions {
  signal?: AbortSignal;
  onUpdate?: (current: PatientImport) => void;
}

export function processedRows(i: Pick<PatientImport, 'created' | 'matched' | 'failed'>): number {
  return i.created + i.matched + i.failed;
}

/** The finished import, results parsed (`imports get` prints the whole object). */
export async function waitForImport(client: ApiClient, importId: string, options: FollowOptions = {}): Promise<PatientImport> {
  return poll(importId, options, (path) => client.get(path, undefined, options.signal, IMPORT), (current) => current);
}

/**
 * The finished import with `results: null` and its results apart, parsed one
 * at a time when read (results.ts): `imports create` prints them as it goes.
 */
export async function waitForImportResults(
  client: ApiClient,
  importId: string,
  options: FollowOptions = {},
): Promise<{ current: PatientImport; results: ServiceResults | null }> {
  return poll(
    importId,
    options,
    async (path) => {
      const response = await client.request<Buffer>('GET', path, { signal: options.signal, rawBody: true });
      // Read raw (its results can be large), so checked here rather than by the client: the
      // import now, each row outcome as it is parsed.
      const wrong = (problem: string) => wrongShape(`GET ${path}`, response.status, `JSON that is not ${IMPORT.name}: ${problem}`, response.requestId, client.baseUrl);
      const answer = importFromBody(response.data, response.headers['content-type'], wrong);
      const wrongImport = answerError(`GET ${path}`, response.status, response.headers['content-type'], response.requestId, client.baseUrl, answer.current, IMPORT);
      if (wrongImport) throw wrongImport;
      return answer;
    },
    (answer) => answer.current,
  );
}

async function poll<T>(importId: string, options: FollowOptions, fetch: (path: string) => Promise<T>, importOf: (answer: T) => PatientImport): Promise<T> {
  let answer: T | undefined;
  let current: PatientImport | undefined;
  let delay = FIRST_POLL_MS;
  const path = `/patient-imports/${encodeURIComponent(importId)}`;
  for (;;) {
    if (answer !== undefined && current && current.status !== 'running') return answer;
    if (current) await sleep(delay, options.signal);
    const previous = current;
    answer = await fetch(path);
    current = importOf(answer);
    options.onUpdate?.(current);
    const moved = previous === undefined || processedRows(current) !== processedRows(previous);
    if (!moved) delay = Math.min(MAX_POLL_MS, Math.round(delay * 1.5));
  }
}
