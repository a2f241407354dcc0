/**
 * Keychain tests against the throwaway gnome-keyring of scripts/with-keyring.sh.
 *
 * gnome-keyring-daemon (Debian's 42.1; upstream issues 190, 194 and 195) can abort on a burst of
 * Secret Service sessions from many short-lived clients. with-keyring.sh starts it again on the
 * same keyring and writes one line per restart to $MSGCTL_TEST_KEYRING_RESTARTS. A keychain test
 * running in another worker at that moment fails with "org.freedesktop.secrets was not provided"
 * (seen once in a local full run: keychain.test.ts beside hostile-concurrency's five-process
 * burst). That is gnome-keyring's failure, not msgctl's: such a test runs once more, and only then.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

/** How often scripts/with-keyring.sh had to start gnome-keyring-daemon again in this run. */
export function keyringRestarts(): number {
  const file = process.env.MSGCTL_TEST_KEYRING_RESTARTS;
  return file && existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
}

/** Whether some process owns the Secret Service's name on the session bus now. */
async function secretServiceOwned(): Promise<boolean> {
  try {
    const { stdout } = await promisify(execFile)('dbus-send', [
      '--session',
      '--print-reply',
      '--dest=org.freedesktop.DBus',
      '/org/freedesktop/DBus',
      'org.freedesktop.DBus.NameHasOwner',
      'string:org.freedesktop.secrets',
    ]);
    return stdout.includes('boolean true');
  } catch {
    return false;
  }
}

/** Waits (bounded) until the Secret Service's name has an owner. */
async function untilOwned(): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline && !(await secretServiceOwned()); ) await sleep(100);
}

/**
 * Runs `attempt`; when it fails and the daemon was started again meanwhile, runs it once more.
 * Outside scripts/with-keyring.sh (no count of restarts) a failure is rethrown as it is.
 *
 * The count is read once the name has an owner, so a restart already under way when the test
 * starts is not taken for one during it. After a failure, a daemon that aborted can hold its
 * name until it has finished exiting, and the script counts the restart only then: so the count
 * is watched for a few seconds before the failure is taken as msgctl's own. Tests wrapped in this
 * need a timeout of at least two attempts and ~15 s more.
 */
export async function againAfterKeyringRestart<T>(attempt: () => Promise<T>): Promise<T> {
  if (!process.env.MSGCTL_TEST_KEYRING_RESTARTS) return attempt();
  await untilOwned();
  const before = keyringRestarts();
  try {
    return await attempt();
  } catch (err) {
    for (const deadline = Date.now() + 5_000; keyringRestarts() === before && Date.now() < deadline; ) await sleep(100);
    if (keyringRestarts() === before) throw err;
    await untilOwned();
    return attempt();
  }
}
