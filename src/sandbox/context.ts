/**
 * What routes and workers share: the store with its typed tables, the clock,
 * an id generator, the options, and a bus of domain events (message created,
 * delivery changed…) that workers and webhooks subscribe to.
 */
import { EventEmitter } from 'node:events';
import { TimeOrderedIds } from './time-ordered-ids.js';
import type { SandboxStore } from './store/store.js';
import type { Clock } from './clock.js';
import { coreTables, type CoreTables } from './domain/records.js';
import { messageText } from './domain/message-text.js';

export interface SandboxOptions {
  port: number;
  dataFile?: string;
  seed: number;
  chaos?: string;
  /** Requests per second per credential; 0 disables. */
  rateLimit: number;
  timeScale: number;
  seedMessages?: number;
  /** Ends a start that is still seeding (Ctrl-C on `msgctl sandbox --seed-messages 1000000`). */
  signal?: AbortSignal;
  /** Quiet by default; `msgctl sandbox --verbose` logs requests. */
  log?: (line: string) => void;
}

export class SandboxContext {
  readonly db: CoreTables;
  readonly events = new EventEmitter();
  /** Set once the server listens: http://127.0.0.1:PORT */
  origin = '';
  /** Set at start (seeded, or read back from --data); served by GET /_sandbox/credentials. */
  credentials?: object;
  /** With --data: saves pending changes now (awaited before a write is answered). */
  durable?: () => Promise<void>;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly ids: TimeOrderedIds;

  constructor(
    readonly store: SandboxStore,
    readonly clock: Clock,
    readonly options: SandboxOptions,
  ) {
    this.db = coreTables(store);
    this.ids = new TimeOrderedIds(() => clock.now());
    // Every write of a message also stores its view's own part as text (pages splice it).
    this.db.messages.derive('view', messageText);
    this.events.setMaxListeners(100);
  }

  get baseUrl(): string {
    return `${this.origin}/v1`;
  }

  /** A new record's id: a UUIDv7 greater than every id made before it (time-ordered-ids.ts). */
  newId(): string {
    return this.ids.next();
  }

  /** Runs `fn` after `ms` of sandbox time (scaled by --time-scale); cancelled on close. */
  later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      try {
        fn();
        // Each step its own unit of work, not one with every step due in the same turn (store.ts).
        this.store.endUnitOfWork();
      } catch (err) {
        this.options.log?.(`background task failed: ${(err as Error).stack}`);
      }
    }, this.clock.scaled(ms));
    this.timers.add(timer);
  }

  cancelTimers(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
