/**
 * Runs a long-lived `msgctl` command of the built binary in the background, so
 * a test can read its output as it arrives, act meanwhile, and stop it with a
 * real signal. (helpers/in-process.ts `startInProcess` does the same in the
 * test's own process.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { binPath } from './cli.js';
import { watchOutput, type WatchedOutput } from './output-watch.js';

export interface BackgroundCli extends WatchedOutput {
  child: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startCli(args: string[], env: Record<string, string | undefined>, input = ''): BackgroundCli {
  const child = spawn(process.execPath, [binPath(), ...args], { env: env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin!.end(input);
  const output = watchOutput(() => child.exitCode);
  child.stdout!.on('data', (d) => output.write('stdout', String(d)));
  child.stderr!.on('data', (d) => output.write('stderr', String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => (output.changed(), resolve(code))));
  return Object.assign(output, {
    child,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  });
}
