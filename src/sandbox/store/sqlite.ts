/**
 * Opens Node's built-in SQLite (`node:sqlite`, no native dependency to
 * install). On Node 22 loading it prints an ExperimentalWarning on every
 * start; that one warning (and no other) is dropped, since the sandbox's
 * users cannot act on it.
 */
import type { DatabaseSync } from 'node:sqlite';

type SqliteModule = typeof import('node:sqlite');
let loaded: SqliteModule | undefined;

function sqlite(): SqliteModule {
  if (loaded) return loaded;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const message = typeof warning === 'string' ? warning : warning.message;
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type ?? (warning as Error).name;
    if (type === 'ExperimentalWarning' && /^SQLite is an experimental feature/.test(message)) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    // getBuiltinModule loads it here, after the filter is in place (a static import would load it first).
    loaded = process.getBuiltinModule('node:sqlite') as SqliteModule;
  } finally {
    process.emitWarning = emitWarning;
  }
  return loaded;
}

export function openDatabase(path: string): DatabaseSync {
  return new (sqlite().DatabaseSync)(path);
}
