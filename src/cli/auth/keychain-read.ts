/**
 * What a keychain read made in this process answers (secret-service-read.ts,
 * keychain-in-process.ts), for keychain-store.ts, which turns it into a secret
 * or an error.
 */

/** The secret (null: no such entry), or `handOver` with why the reader did not decide. */
export type DirectAnswer = { secret: string | null } | { handOver: string };

/** The keychain did not answer in time: the caller says so for its OS. */
export class DirectReadTimeout extends Error {
  constructor() {
    super('the OS keychain did not answer in time');
    this.name = 'DirectReadTimeout';
  }
}
