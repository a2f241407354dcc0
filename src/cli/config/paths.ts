/**
 * Where msgctl keeps its files, per OS (docs/platforms.md):
 *
 *   Linux, macOS   config  $XDG_CONFIG_HOME/msgctl, else ~/.config/msgctl
 *                  state   $XDG_STATE_HOME/msgctl,  else ~/.local/state/msgctl
 *   Windows        config  %APPDATA%\msgctl        (roams with the profile: config.json, credentials.json)
 *                  state   %LOCALAPPDATA%\msgctl   (this machine only: batch journals)
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
  /** Where msgctl 0.1 kept the config on this OS, when it differs: read once, then migrated. */
  legacyConfigDir?: string;
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
    return {
      configDir: p.join(xdgConfig ?? p.join(userHome, '.config'), APP),
      stateDir: p.join(xdgState ?? p.join(userHome, '.local', 'state'), APP),
    };
  }
  const profile = absolute(env.USERPROFILE, p) ?? home;
  const roaming = absolute(env.APPDATA, p) ?? p.join(profile, 'AppData', 'Roaming');
  const local = absolute(env.LOCALAPPDATA, p) ?? p.join(profile, 'AppData', 'Local');
  return {
    configDir: xdgConfig ? p.join(xdgConfig, APP) : p.join(roaming, APP),
    stateDir: xdgState ? p.join(xdgState, APP) : p.join(local, APP),
    // 0.1 used HOME (else the profile folder) + .config, and ignored `C:\…` XDG values.
    legacyConfigDir: xdgConfig ? undefined : p.join(env.HOME || home, '.config', APP),
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

/** Only written on an explicit --insecure-storage; mode 0600. */
export function insecureCredentialsFile(env: Env): string {
  return path.join(configDir(env), 'credentials.json');
}
