/**
 * The words a message or hint uses for a shell command, a file mode or a
 * signal, on the OS it runs on: `export NAME=…` means nothing in PowerShell or
 * cmd, a mode of 0600 nothing to Windows, and Windows has no SIGTERM to send.
 * Windows hints give the PowerShell form (what `msgctl completion` and the docs
 * use), and cmd's where a cmd user would otherwise be stuck.
 *
 * Only for what msgctl prints at run time. Help text is written at build time
 * (bin/msgctl.js) and read on every OS, so it names both forms instead.
 */

type Platform = NodeJS.Platform;

const windows = (platform: Platform) => platform === 'win32';

/** A command that sets `name` for the commands that follow, in the user's shell. */
export function setVariableCommand(name: string, value: string, platform: Platform = process.platform): string {
  return windows(platform) ? `$env:${name} = '${value}'` : `export ${name}=${value}`;
}

/** The same for several variables, as one phrase: "export A and B" / "set $env:A and $env:B". */
export function setVariablesPhrase(names: string[], platform: Platform = process.platform): string {
  return windows(platform) ? `set ${names.map((n) => `$env:${n}`).join(' and ')}` : `export ${names.join(' and ')}`;
}

/** "unset it (`unset NAME`)", or its Windows form: a phrase for a hint. */
export function clearVariablePhrase(name: string, platform: Platform = process.platform): string {
  return windows(platform) ? `remove it (\`Remove-Item Env:${name}\` in PowerShell, \`set ${name}=\` in cmd)` : `unset it (\`unset ${name}\`)`;
}

/** How a file only its owner can read is described: its mode, or on Windows where it is. */
export function privateFileWords(platform: Platform = process.platform): string {
  return windows(platform) ? "your Windows account's, on this PC only" : '0600';
}

/** A command that deletes `path`. */
export function removeFileCommand(path: string, platform: Platform = process.platform): string {
  return windows(platform) ? `del "${path}"` : `rm "${path}"`;
}

/**
 * What a terminating signal was, in the words of the platform: on Windows Node
 * reports a closed console window as SIGHUP and Ctrl-Break as SIGBREAK, and no
 * other program can send SIGTERM.
 */
export function signalWords(received: string | undefined, platform: Platform = process.platform): string {
  if (windows(platform)) {
    if (received === 'SIGHUP') return 'the console window was closed';
    if (received === 'SIGBREAK') return 'Ctrl-Break';
    return 'stopped';
  }
  if (received === 'SIGHUP') return 'SIGHUP: the terminal or ssh session closed';
  return received ?? 'SIGTERM';
}
