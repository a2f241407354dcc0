/**
 * Starts a sandbox: state (fresh seed or --data file), the HTTP server on
 * 127.0.0.1, and the background workers. Used by `msgctl sandbox` and, in
 * process, by the tests and benchmarks.
 */
import { SandboxDataError, SandboxStore } from './store/store.js';
import { Clock } from './clock.js';
import { SandboxContext, type SandboxOptions } from './context.js';
import { seedWorld, type SeededCredentials } from './seed.js';
import { buildApp } from './http/app.js';
import { startWorkers } from './workers/index.js';
import { seedSyntheticMessages } from './domain/synthetic.js';
import { FaultState } from './routes/faults.js';
import { testingHandle, type SandboxTesting } from './testing.js';

export interface RunningSandbox {
  /** http://127.0.0.1:PORT — OAuth and discovery live here. */
  origin: string;
  /** origin + /v1 */
  baseUrl: string;
  credentials: SeededCredentials;
  sb: SandboxContext;
  /** For tests (testing.ts): deterministic faults, a request log, short pages. */
  testing: SandboxTesting;
  close(): Promise<void>;
}

interface MetaRecord {
  id: 'credentials';
  credentials: SeededCredentials;
}

export async function startSandbox(partial: Partial<SandboxOptions> = {}): Promise<RunningSandbox> {
  const options: SandboxOptions = { port: 0, seed: 1, rateLimit: 100, timeScale: 1, ...partial };
  const store = new SandboxStore(options.dataFile ?? null);
  const clock = new Clock(options.timeScale);
  const sb = new SandboxContext(store, clock, options);

  const fresh = store.isEmpty();
  const meta = store.table<MetaRecord>('meta');
  let credentials: SeededCredentials;
  if (!fresh) {
    const saved = meta.get('credentials');
    if (!saved) throw new Error(`${options.dataFile} is not a sandbox data file (no credentials).`);
    credentials = saved.credentials;
  } else {
    credentials = await store
      .holdCommits(async () => {
        const seeded = seedWorld(sb);
        meta.put({ id: 'credentials', credentials: seeded });
        if (options.seedMessages) await seedSyntheticMessages(sb, options.seedMessages, options.signal);
        return seeded;
      })
      .catch((err: unknown) => {
        // SQLITE_BUSY: another sandbox holds the new file's write lock, seeding it (two started at once).
        if ((err as { errcode?: number }).errcode === 5 && options.dataFile) {
          throw new SandboxDataError(`--data ${options.dataFile} is being seeded by another msgctl sandbox right now: start this one again once that one is listening, or give another file.`);
        }
        throw err;
      });
  }
  sb.credentials = credentials;
  // The seed is committed before the server answers anything.
  store.settle();
  sb.durable = () => store.durable();

  const faults = new FaultState();
  const app = await buildApp(sb, faults);
  await app.listen({ host: '127.0.0.1', port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  sb.origin = `http://127.0.0.1:${port}`;
  const stopWorkers = startWorkers(sb);

  return {
    origin: sb.origin,
    baseUrl: sb.baseUrl,
    credentials,
    sb,
    testing: testingHandle(app.server, faults),
    async close() {
      stopWorkers();
      await app.close();
      sb.cancelTimers();
      store.close();
    },
  };
}
