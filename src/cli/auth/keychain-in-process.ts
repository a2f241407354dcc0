/**
 * macOS and Windows: a keychain read through the keychain module in this
 * process, not in a second Node (keychain-store.ts), which doubled the time of
 * every command that reads a stored credential.
 *
 * There the module's constructor only chooses the store (no IPC; only its
 * Linux store connects to D-Bus in the constructor, which is why Linux reads
 * go through secret-service-read.ts instead), and the read itself runs on
 * libuv's thread pool, so the main thread stays free and the deadline is a
 * timer. What a thread cannot do is give up: a read waiting on a keychain
 * dialog nobody answers, or on a Credential Manager that security software
 * holds, keeps its thread, and Node waits for every pool thread before it
 * exits. So once a read has missed its deadline, the process, when it is
 * done, ends without that wait: on Windows with exit code 1 (the code of a
 * keychain failure), elsewhere by SIGKILL (status 137), after the error has
 * been written.
 */
import { createRequire } from 'node:module';
import { DirectReadTimeout } from './keychain-read.js';

type KeyringModule = typeof import('@napi-rs/keyring');

let keyring: KeyringModule | undefined;

function loadKeyring(): KeyringModule {
  try {
    keyring ??= createRequire(import.meta.url)('@napi-rs/keyring') as KeyringModule;
  } catch (err) {
    throw new Error(`the keychain module could not be loaded: ${(err as Error).message}`);
  }
  return keyring;
}

/** The native read, replaceable in tests by one that never returns. */
export type NativeRead = (service: string, account: string, signal: AbortSignal) => Promise<string | null>;

const nativeRead: NativeRead = (service, account, signal) => new (loadKeyring().AsyncEntry)(service, account).getPassword(signal);

/**
 * The stored secret (null: none), within `timeoutMs` (then DirectReadTimeout). A failure of
 * the keychain itself is thrown as the module's message, for explainKeychainFailure.
 */
export async function readKeychainInProcess(service: string, account: string, timeoutMs: number, read: NativeRead = nativeRead): Promise<string | null> {
  const call = read(service, account, AbortSignal.timeout(timeoutMs));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DirectReadTimeout()), timeoutMs);
  });
  try {
    return await Promise.race([call, deadline]);
  } catch (err) {
    if (err instanceof DirectReadTimeout || isAbort(err)) {
      abandonAtExit(call);
      throw new DirectReadTimeout();
    }
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || /abort/i.test(err.message));
}

/** When the process exits with `call` still running in a pool thread, it ends without waiting for it. */
function abandonAtExit(call: Promise<unknown>): void {
  let running = true;
  call.then(
    () => (running = false),
    () => (running = false),
  );
  process.once('exit', () => {
    if (!running) return;
    // process.exit() has run its 'exit' listeners and would now join the thread pool: forever.
    // On Windows this is TerminateProcess with exit code 1; elsewhere the signal's status.
    process.kill(process.pid, 'SIGKILL');
  });
}
