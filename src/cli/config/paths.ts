/**
 * XDG base directories (with the usual fallbacks) for config and state.
 * Read from the environment passed in, so tests can point them at temp dirs.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

function base(env: Env, xdgVar: string, fallback: string[]): string {
  const fromEnv = env[xdgVar];
  if (fromEnv && fromEnv.startsWith('/')) return fromEnv;
  return join(env.HOME || homedir(), ...fallback);
}

export function configDir(env: Env): string {
  return join(base(env, 'XDG_CONFIG_HOME', ['.config']), 'msgctl');
}

export function stateDir(env: Env): string {
  return join(base(env, 'XDG_STATE_HOME', ['.local', 'state']), 'msgctl');
}

export function configFile(env: Env): string {
  return join(configDir(env), 'config.json');
}

/** Only written on an explicit --insecure-storage; mode 0600. */
export function insecureCredentialsFile(env: Env): string {
  return join(configDir(env), 'credentials.json');
}
