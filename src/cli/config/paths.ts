/**
 * Where msgctl keeps its files, per OS (docs/platforms.md):
 *
 *   Linux, macOS   config  $XDG_CONFIG_HOME/msgctl, else ~/.config/msgctl
 *                  state   $XDG_STATE_HOME/msgctl,  else ~/.local/state/msgctl
 *   Windows        config  %APPDATA%\msgctl        (roams with the profile: config.json)
 *                  state   %LOCALAPPDATA%\msgctl   (this machine only: batch journals, and the
 *                                                   --insecure-storage credentials.json: a secret
 *                                                   must not be copied to a profile server)
 *
 * An XDG variable is honoured on every OS when it holds an absolute path for
 * that OS (`D:\cfg` on Windows); a relative one is ignored, as the XDG spec says.
 * On Windows HOME is not the profile folder (Git Bash and some IT setups point
 * it at a network drive), so it is not used there.
 *
 * `locate` is a pure function of the environment, the platform and the path
 * implementation, so the Windows rules are tested on any OS with path.win32.
 */
import { homedir } from 'node:os';
import path from 'node:path';

type Env = Record<string, string | undefined>;
type PathImpl = Pick<typeof path.posix, 'join' | 'isAbsolute'>;

export interface Locations {
  configDir: string;
  stateDir: string;
  /** Where the --insecure-storage credentials.json goes: beside config.json, except on Windows. */
  secretsDir: string;
  /** Where msgctl 0.1 kept the config on this OS, when it differs: read once, then migrated. */
  legacyConfigDir?: string;
  /** Windows: where credentials.json was before it left the roaming profile; moved from there once. */
  roamingSecretsDir?: string;
}

export interface Platform {
  platform: NodeJS.Platform;
  path: PathImpl;
  /** os.homedir(): the profile folder on Windows. */
  home: string;
}

const APP = 'msgctl';

function absolute(value: string | undefined, p: PathImpl): string | undefined {
  const trimmed = value?.trim();
  return trimmed && p.isAbsolute(trimmed) ? trimmed : undefined;
}

export function locate(env: Env, { platform, path: p, home }: Platform): Locations {
  const xdgConfig = absolute(env.XDG_CONFIG_HOME, p);
  const xdgState = absolute(env.XDG_STATE_HOME, p);
  if (platform !== 'win32') {
    const userHome = env.HOME || home;
    const configDir = p.join(xdgConfig ?? p.join(userHome, '.config'), APP);
    return { configDir, stateDir: p.join(xdgState ?? p.join(userHome, '.local', 'state'), APP), secretsDir: configDir };
  }
  const profile = absolute(env.USERPROFILE, p) ?? home;
  const roaming = absolute(env.APPDATA, p) ?? p.join(profile, 'AppData', 'Roaming');
  const local = absolute(env.LOCALAPPDATA, p) ?? p.join(profile, 'AppData', 'Local');
  return {
    configDir: xdgConfig ? p.join(xdgConfig, APP) : p.join(roaming, APP),
    stateDir: xdgState ? p.join(xdgState, APP) : p.join(local, APP),
    // %APPDATA% roams: many clinic domains copy it to a profile server at every sign-out.
    // A folder the user named with XDG_CONFIG_HOME is theirs to choose.
    secretsDir: xdgConfig ? p.join(xdgConfig, APP) : p.join(local, APP),
    // 0.1 used HOME (else the profile folder) + .config, and ignored `C:\…` XDG values.
    legacyConfigDir: xdgConfig ? undefined : p.join(env.HOME || home, '.config', APP),
    roamingSecretsDir: xdgConfig ? undefined : p.join(roaming, APP),
  };
}

export function currentLocations(env: Env): Locations {
  return locate(env, { platform: process.platform, path, home: homedir() });
}

export function configDir(env: Env): string {
  return currentLocations(env).configDir;
}

export function stateDir(env: Env): string {
  return currentLocations(env).stateDir;
}

export function configFile(env: Env): string {
  return path.join(configDir(env), 'config.json');
}

const CREDENTIALS_FILE = 'credentials.json';

/** Only written on an explicit --insecure-storage; mode 0600; never in a roaming folder. */
export function insecureCredentialsFile(env: Env): string {
  return path.join(currentLocations(env).secretsDir, CREDENTIALS_FILE);
}

/** Windows: the credentials file where msgctl kept it before, in the roaming %APPDATA%; else undefined. */
export function roamingCredentialsFile(env: Env): string | undefined {
  const { roamingSecretsDir } = currentLocations(env);
  return roamingSecretsDir ? path.join(roamingSecretsDir, CREDENTIALS_FILE) : undefined;
}
