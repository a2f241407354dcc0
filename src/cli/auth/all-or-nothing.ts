/**
 * A credential is several store entries (an OAuth session: the access token,
 * the refresh token, the client secret; token-entries.ts) plus the profile in
 * config.json that says where it is. They are stored all or nothing: every
 * entry is first checked against the store's own limit (Windows Credential
 * Manager's 2,560 bytes), so a token too large fails before anything is
 * written, and a write that fails anyway (the keychain locked meanwhile, a
 * full disk for config.json) puts back what the entries held before, so the
 * profile keeps its previous credential, or none, never half of a new one.
 *
 * Only for a new credential (login, auth set-key): a refresh must keep the
 * rotated tokens even if one write fails, because the old refresh token no
 * longer works (token-entries.ts orders those writes instead).
 */
import { CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import type { SecretStore } from './secret-store-types.js';
import { REFRESH_ENTRY_PREFIX, SplitTokenStore, type EntryWrite } from './token-entries.js';

/** A secret to store under an account of the store (before its split into entries). */
export interface SecretWrite {
  account: string;
  secret: string;
}

export interface AllOrNothingOptions {
  /** What is being stored, for messages: "the login session", "the API key". */
  what: string;
  /** The ways out when a secret is too large for the store (--insecure-storage, …). */
  tooLargeHints: string[];
  /** Runs after every entry is written; if it fails, the entries are put back too. */
  then?: () => Promise<unknown>;
}

/** A secret the store cannot keep: nothing was written. */
export class CredentialTooLargeError extends CliError {
  constructor(message: string, hints: string[]) {
    super(message, ExitCode.Failure, hints);
    this.name = 'CredentialTooLargeError';
  }
}

/** The entries behind `store` and the writes that storing `secrets` makes there, in order. */
function planFor(store: SecretStore, secrets: SecretWrite[]): { entries: SecretStore; writes: EntryWrite[] } {
  if (store instanceof SplitTokenStore) return { entries: store.inner, writes: secrets.flatMap((s) => store.plan(s.account, s.secret)) };
  return { entries: store, writes: secrets.map((s) => ({ account: s.account, value: s.secret })) };
}

/** What an entry holds, for messages. */
export function entryLabel(account: string, value: string): string {
  if (account.startsWith(REFRESH_ENTRY_PREFIX)) return 'the refresh token';
  if (account.startsWith('oauth-client-secret:')) return 'the client secret';
  if (account.startsWith('oauth-')) return 'the entry';
  return value.includes('"kind":"oauth"') ? 'the access token (with its expiry)' : 'the API key';
}

/**
 * Throws CredentialTooLargeError, naming each secret too large and how large it is, when the
 * store cannot keep one of `secrets`; checks only, writes nothing.
 */
export function checkFits(store: SecretStore, secrets: SecretWrite[], options: Pick<AllOrNothingOptions, 'what' | 'tooLargeHints'>): void {
  const { entries, writes } = planFor(store, secrets);
  const problems = writes.flatMap((w) => {
    const problem = w.value === null ? null : (entries.entryProblem?.(w.value) ?? null);
    return problem ? [`${entryLabel(w.account, w.value!)} is ${problem}`] : [];
  });
  if (problems.length === 0) return;
  throw new CredentialTooLargeError(`Cannot store ${options.what} in the ${store.describe()}: ${problems.join('; ')}. Nothing was stored.`, options.tooLargeHints);
}

/** Stores every secret, then runs `then`; on any failure, every entry is as it was before and the error says so. */
export async function storeAllOrNothing(store: SecretStore, secrets: SecretWrite[], options: AllOrNothingOptions): Promise<void> {
  checkFits(store, secrets, options);
  const { entries, writes } = planFor(store, secrets);
  const before = new Map<string, string | null>();
  for (const { account } of writes) if (!before.has(account)) before.set(account, await entries.get(account));
  const done: string[] = [];
  try {
    for (const write of writes) {
      // Recorded first: a write that failed half-way (the entry removed, the new one refused) is undone too.
      done.push(write.account);
      if (write.value === null) await entries.delete(write.account);
      else await entries.set(write.account, write.value);
    }
    await options.then?.();
  } catch (err) {
    const left = await putBack(entries, done, before);
    throw notStored(err, options.what, left);
  }
}

/** Restores each written entry to what it held before; returns the accounts that could not be. */
async function putBack(entries: SecretStore, written: string[], before: Map<string, string | null>): Promise<string[]> {
  const left: string[] = [];
  for (const account of [...new Set(written)].reverse()) {
    const previous = before.get(account) ?? null;
    try {
      if (previous === null) await entries.delete(account);
      else await entries.set(account, previous);
    } catch {
      left.push(account);
    }
  }
  return left;
}

function notStored(err: unknown, what: string, left: string[]): unknown {
  if (!(err instanceof Error)) return err;
  const undone =
    left.length === 0
      ? `Nothing of ${what} was stored: what was written before the failure was put back as it was.`
      : `Some of ${what} could not be put back (${left.join(', ')}); run \`msgctl logout\` for this profile, then store it again.`;
  const exitCode = err instanceof CliError ? err.exitCode : ExitCode.Failure;
  const hints = err instanceof CliError ? err.hints : [];
  return new CliError(`${err.message.replace(/\.?$/, '.')} ${undone}`, exitCode, hints);
}
