/**
 * What every secret store is (keychain-store.ts, file-store.ts), apart from
 * secret-store.ts, which picks one: the stores import this, not their picker.
 */
export type StorageKind = 'keychain' | 'file';

export interface SecretStore {
  readonly kind: StorageKind;
  /** Where secrets go, for messages: "OS keychain (Secret Service)", "file ~/… (0600)". */
  describe(): string;
  /** The stored secret, or null when this profile has none. */
  get(profile: string): Promise<string | null>;
  set(profile: string, secret: string): Promise<void>;
  /** True when something was removed, false when there was nothing to remove. */
  delete(profile: string): Promise<boolean>;
  /**
   * Why this store cannot keep `secret` as one entry (Windows Credential Manager's size
   * limit), or null; checked before anything of a login is written (all-or-nothing.ts).
   */
  entryProblem?(secret: string): string | null;
}

export type Env = Record<string, string | undefined>;
