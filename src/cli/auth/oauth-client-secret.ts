/**
 * The OAuth app's client secret. It authenticates every token request (the
 * login's code exchange, each refresh, the revocation at logout), so after a
 * login it is kept next to the tokens, in the same store. It comes from, in
 * order: MSGCTL_CLIENT_SECRET, that store, a hidden prompt. Never argv.
 *
 * It is stored under its own entry (per profile and client id), not inside
 * the token blob, so `msgctl logout` ends the session without forgetting the
 * app's configuration.
 */
import type { Env } from '../context.js';
import type { StorageKind } from './secret-store.js';

export function clientSecretEntry(profileName: string, clientId: string): string {
  return `oauth-client-secret:${profileName}:${clientId}`;
}

export async function readStoredClientSecret(
  env: Env,
  storage: StorageKind,
  profileName: string,
  clientId: string,
): Promise<string | null> {
  const { openSecretStore } = await import('./secret-store.js');
  return openSecretStore(storage, env).get(clientSecretEntry(profileName, clientId));
}

export async function storeClientSecret(
  env: Env,
  storage: StorageKind,
  profileName: string,
  clientId: string,
  secret: string,
): Promise<void> {
  const { openSecretStore } = await import('./secret-store.js');
  await openSecretStore(storage, env).set(clientSecretEntry(profileName, clientId), secret);
}

export async function forgetClientSecret(env: Env, storage: StorageKind, profileName: string, clientId: string): Promise<void> {
  const { openSecretStore } = await import('./secret-store.js');
  await openSecretStore(storage, env).delete(clientSecretEntry(profileName, clientId));
}

/** For refresh and logout: the environment's, else the stored one, else null. */
export async function availableClientSecret(
  env: Env,
  storage: StorageKind | null,
  profileName: string,
  clientId: string,
): Promise<string | null> {
  if (env.MSGCTL_CLIENT_SECRET) return env.MSGCTL_CLIENT_SECRET;
  if (!storage) return null;
  return readStoredClientSecret(env, storage, profileName, clientId);
}
