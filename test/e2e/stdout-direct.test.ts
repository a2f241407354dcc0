/**
 * stdout and stderr written directly (output/direct-output.ts) lose nothing and
 * end the way Node's streams did: a reader that is slow on a pipe left in
 * non-blocking mode gets every byte in order, a reader that goes away ends the
 * command with status 0, and a file or /dev/null gets what a pipe gets. A stdout
 * that cannot be written (a full disk, a file size limit) ends the command with
 * status 1 and says why; a stderr that cannot be written changes nothing.
 */
import { execFileSync, spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, sandboxEnv, untilIdle } from '../helpers/cli.js';
// The baseline list runs in this process: what it proves is the bytes, which the spawned runs below are held to.
import { msgctl } from '../helpers/in-process.js';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox({ seedMessages: 1500 });
const LIST = ['messages', 'list', '--all', '--json', '--after', '2000-01-01'];
let dir: string;
let expected: string;
let fullListPages: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'msgctl-stdout-'));
  const before = sandbox.current.testing.requests().length;
  const r = await msgctl(LIST, { env: sandboxEnv(sandbox.current) });
  fullListPages = sandbox.current.testing.requests().slice(before).filter((r) => r.path === '/patient-messages').length;
  expect(fullListPages).toBeGreaterThan(6);
  expect(r.exitCode, r.stderr).toBe(0);
  expected = r.stdout;
  expect(expected.length).toBeGreaterThan(600_000); // well past what a pipe holds
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The list, its stdout a pipe nobody reads yet. `nonBlocking`: a preload opens Node's
 * stdout stream first, which puts the pipe in non-blocking mode (as a Node parent
 * sharing its own stdout would), so a full pipe refuses msgctl's direct writes with
 * EAGAIN and the rest must go through the stream.
 */
function listIntoPipe(nonBlocking: boolean): { child: ChildProcessByStdio<null, Readable, Readable>; stderr: () => string } {
  const preload = join(dir, 'nonblocking-stdout.cjs');
  if (nonBlocking) writeFileSync(preload, 'process.stdout;\n');
  const child = spawn(process.execPath, [binPath(), ...LIST], {
    env: sandboxEnv(sandbox.current, nonBlocking ? { NODE_OPTIONS: `--require=${preload}` } : {}) as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  return { child, stderr: () => stderr };
}

/**
 * Until msgctl has filled the pipe and waits on it: it has written at least a pipe's worth (64 KiB,
 * Linux's /proc/PID/io `wchar`), and sleeps with no CPU spent for 300 ms (untilIdle) — not merely
 * waiting for the next page from the sandbox, which runs in this process. A fixed delay could end
 * while a loaded machine was still starting it. Elsewhere untilIdle's fixed wait is all there is.
 */
async function untilPipeIsFull(child: { pid?: number }): Promise<void> {
  const written = () => Number(/^wchar: (\d+)$/m.exec(readFileSync(`/proc/${child.pid}/io`, 'utf8'))?.[1] ?? 0);
  for (let tries = 0; ; tries++) {
    await untilIdle(child.pid!);
    if (process.platform !== 'linux' || written() >= 65_536) return;
    if (tries === 20) throw new Error(`msgctl sat idle having written ${written()} bytes: the pipe never filled`);
  }
}

describe.skipIf(process.platform === 'win32')('stdout written directly', () => {
  it('a slow reader on a non-blocking pipe gets every byte, in order', async () => {
    const { child, stderr } = listIntoPipe(true);
    await untilPipeIsFull(child);
    if (process.platform === 'linux') {
      const flags = Number.parseInt(/flags:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/fdinfo/1`, 'utf8'))![1]!, 8);
      expect(flags & 0o4000, 'stdout should be non-blocking for this test to mean anything').not.toBe(0);
    }
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    const [code] = await once(child, 'close');
    expect(stderr()).toBe('');
    expect(code).toBe(0);
    expect(Buffer.concat(chunks).toString('utf8') === expected).toBe(true);
  });

  it('a reader that goes away after a full non-blocking pipe handed the rest to the stream: still 0, nothing on stderr', async () => {
    const { child, stderr } = listIntoPipe(true);
    await untilPipeIsFull(child);
    child.stdout.destroy();
    const [code] = await once(child, 'close');
    expect(stderr()).toBe('');
    expect(code).toBe(0);
  });

  it('a reader that goes away (`| head`) ends the command at once, with 0 and nothing on stderr', async () => {
    const before = sandbox.current.testing.requests().length;
    const { child, stderr } = listIntoPipe(false);
    await once(child.stdout, 'data');
    child.stdout.destroy();
    const [code] = await once(child, 'close');
    expect(stderr()).toBe('');
    expect(code).toBe(0);
    // It stopped at the next write rather than reading the other pages for nobody.
    const pages = sandbox.current.testing.requests().slice(before).filter((r) => r.path === '/patient-messages');
    expect(pages.length).toBeLessThan(fullListPages / 2);
  });

  it('a reader that stops reading (a FIFO, as `| less` is): SIGTERM still ends the command', { timeout: 20_000 }, async () => {
    // Past the first few KB a pipe gets Node's stream, which waits in the event loop; a
    // blocking write to the full pipe would hold the process (and its signal handlers) for good.
    const fifo = join(dir, 'stalled.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK); // open, never read
    const writer = openSync(fifo, constants.O_WRONLY);
    try {
      const child = spawn(process.execPath, [binPath(), ...LIST], {
        env: sandboxEnv(sandbox.current) as NodeJS.ProcessEnv,
        stdio: ['ignore', writer, 'ignore'],
      });
      await untilPipeIsFull(child);
      expect(child.exitCode).toBeNull();
      const started = Date.now();
      child.kill('SIGTERM');
      await once(child, 'exit');
      // The command cannot finish its answer, so it ends at the grace period's end (signals.ts, 5 s) at the latest.
      expect(Date.now() - started).toBeLessThan(8000);
    } finally {
      closeSync(writer);
      closeSync(reader);
    }
  });

  it('a file gets exactly what a pipe gets; /dev/null takes it all', async () => {
    for (const target of [join(dir, 'out.jsonl'), '/dev/null']) {
      const fd = openSync(target, 'w');
      try {
        const child = spawn(process.execPath, [binPath(), ...LIST], {
          env: sandboxEnv(sandbox.current) as NodeJS.ProcessEnv,
          stdio: ['ignore', fd, 'pipe'],
        });
        let stderr = '';
        child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
        const [code] = await once(child, 'close');
        expect(stderr).toBe('');
        expect(code).toBe(0);
      } finally {
        closeSync(fd);
      }
    }
    expect(readFileSync(join(dir, 'out.jsonl'), 'utf8') === expected).toBe(true);
  });
});

/** `args` with stdout and stderr opened on the given paths (null: a pipe); exit code and what reached the pipes. */
async function runInto(args: string[], { stdout, stderr }: { stdout: string | null; stderr: string | null }) {
  const fds = [stdout, stderr].map((path) => (path === null ? 'pipe' : openSync(path, 'w')));
  try {
    const child = spawn(process.execPath, [binPath(), ...args], { env: sandboxEnv(sandbox.current) as NodeJS.ProcessEnv, stdio: ['ignore', fds[0]!, fds[1]!] });
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk));
    const [code] = await once(child, 'close');
    return { code: code as number, stderr: err };
  } finally {
    for (const fd of fds) if (typeof fd === 'number') closeSync(fd);
  }
}

describe.skipIf(process.platform !== 'linux')('stdout that cannot be written', () => {
  it('a full disk (/dev/full, through Node\'s stream): exit 1 and why on stderr, in the --json shape with --json', async () => {
    const plain = await runInto(['org'], { stdout: '/dev/full', stderr: null });
    expect(plain.code).toBe(1);
    expect(plain.stderr).toBe('error: cannot write to standard output: no space left on device (ENOSPC); the output is incomplete.\n');
    const json = await runInto(LIST, { stdout: '/dev/full', stderr: null });
    expect(json.code).toBe(1);
    expect(json.stderr).not.toMatch(/unsettled|Warning/);
    const problem = JSON.parse(json.stderr);
    expect(problem).toMatchObject({ code: 'output_failed', status: null, detail: expect.stringContaining('ENOSPC') });
  });

  it('a file over its size limit (EFBIG, written directly): exit 1, and the file holds what fit', async () => {
    const out = join(dir, 'limited.jsonl');
    // SIGXFSZ ignored (as an ignored signal stays across exec), so the write fails with EFBIG instead of killing.
    const script = `trap '' XFSZ; ulimit -f 4; exec "$0" "$@" > '${out}'`;
    const r = await new Promise<{ code: number; stderr: string }>((resolve) => {
      const child = spawn('/bin/sh', ['-c', script, process.execPath, binPath(), ...LIST], { env: sandboxEnv(sandbox.current) as NodeJS.ProcessEnv, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
      child.on('close', (code) => resolve({ code: code as number, stderr }));
    });
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stderr)).toMatchObject({ code: 'output_failed', detail: expect.stringContaining('EFBIG') });
    const written = readFileSync(out, 'utf8');
    expect(written.length).toBeGreaterThan(0);
    expect(expected.startsWith(written)).toBe(true);
  });

  it('a batch (its rows written by the main thread for the batch thread): exit 1 and why', async () => {
    const csv = join(dir, 'one-row.csv');
    writeFileSync(csv, 'First Name,Mobile Phone\nPat,(212) 555-0142\n');
    const r = await runInto(['send', '--csv', csv, '--template', 'Hi {first_name}', '--json', '--journal', join(dir, 'one-row.jsonl')], { stdout: '/dev/full', stderr: null });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/"code":"output_failed"/);
  });

  it('stderr that cannot be written does not change the exit code (a usage error stays 2)', async () => {
    const r = await runInto(['org', '--no-such-flag'], { stdout: null, stderr: '/dev/full' });
    expect(r.code).toBe(2);
    const ok = await runInto(['org', '--verbose'], { stdout: join(dir, 'org.txt'), stderr: '/dev/full' });
    expect(ok.code).toBe(0);
    expect(readFileSync(join(dir, 'org.txt'), 'utf8')).toMatch(/Riverside|name/);
  });
});
