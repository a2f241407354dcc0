/**
 * The commands whose work grows with a file (`send --csv`, `imports create`)
 * run in a worker thread whose V8 heap has fixed limits, so their peak memory
 * does not grow with the file (issue 15: < 150 MB, and within 10% from 1,000
 * to 100,000 rows).
 *
 * Why a thread. What such a command keeps does not grow with the file (the
 * live heap after a full collection is ~10 MB at 1,000 rows and at 20,000),
 * but V8 sizes its heap from how much has survived so far: over a long batch
 * it doubled the young generation four times (4 → 67 MB) and let the old
 * generation fill further before collecting it, so peak RSS rose from 84 MB
 * at 1,000 rows to 140 MB at 20,000. V8's flags cannot be changed safely at
 * run time (Node documents run-time flag changes as unpredictable), and
 * re-running Node with other flags is a second process; a Worker's
 * `resourceLimits` is the API Node offers to give one isolate its own heap
 * limits. The main thread only starts the worker, passes signals in and the
 * worker's output out, so its own heap stays at its start-up size.
 *
 * Nothing else changes: the worker runs the same `run(argv)` as the main
 * thread would, with the same environment, arguments, exit code, stdout and
 * stderr (each forwarded in order, with back-pressure; with both on one pipe, as with
 * `2>&1`, a line of one may come before a line of the other written earlier), and the terminal's
 * isTTY/columns, so output modes, colours and the progress bar are those of the
 * terminal (the keychain timeout asks the shared descriptors themselves:
 * secret-store.ts). Ctrl-C and SIGTERM are caught here and passed in as the
 * same abort reason (a batch journals what is in flight and exits 130/143); a
 * second Ctrl-C, and the 5-second grace after the first, end the process from
 * this thread as before.
 */
import type { Worker as WorkerThread } from 'node:worker_threads';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Io } from './context.js';
import { ExitCode } from './exit-codes.js';
import { superviseProcess } from './signals.js';
import { processIo } from './process-io.js';
import { handleStderrErrors, handleStdoutErrors } from './output/direct-output.js';
import { adoptHeldFile, reportHeldFilesTo } from './util/held-files.js';

/**
 * The worker's heap limits. Young generation: V8 splits it into two
 * semi-spaces plus room for new large objects, so 6 MB gives 2 MB semi-spaces,
 * which hold every row's short-lived objects (requests in flight, answers
 * being parsed, output not yet written) and keep survivors few. Old
 * generation: the hard limit is ~20× what a batch keeps live (~10–15 MB;
 * a CSV record is capped at 1,000,000 characters), and a limit this small
 * also keeps V8's heap-growing factor at its smallest, so the old generation
 * is collected before it holds much garbage.
 */
export const BATCH_THREAD_LIMITS = { maxYoungGenerationSizeMb: 6, maxOldGenerationSizeMb: 256 } as const;

interface TerminalInfo {
  isTTY: boolean;
  columns?: number;
}

interface BatchThreadData {
  argv: string[];
  /** The compile cache folder of the main thread, if any, for dist/batch-thread.cjs to open. */
  compileCache?: string;
  stdout: TerminalInfo;
  stderr: TerminalInfo;
  stdin: { isTTY: boolean };
}

/** A message from the main thread: an abort (Ctrl-C, SIGTERM) or the terminal's new width. */
type ToWorker = { abort: AbortReason } | { resize: { stdout?: number; stderr?: number } };

interface AbortReason {
  name: string;
  message: string;
  signal?: string;
  received?: string;
}

const terminal = (stream: NodeJS.WriteStream): TerminalInfo => ({ isTTY: Boolean(stream.isTTY), columns: stream.columns });

/**
 * The folder bin/code-cache.js gave Node's compile cache, for the thread to open it too. Node
 * reports the version-keyed folder it made inside (`…/compile/v24.1.0-x64-…`) and adds one of
 * its own to whatever it is given, so the thread gets the folder above it: given the reported
 * one, every batch kept a second copy of the cache one level down.
 */
function compileCacheRoot(): string | undefined {
  const dir = process.getBuiltinModule('node:module').getCompileCacheDir?.();
  return dir ? process.getBuiltinModule('node:path').dirname(dir) : undefined;
}

/** Main thread: runs argv's command in the worker, and exits with its exit code. */
export async function runInBatchThread(argv: string[]): Promise<void> {
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const controller = superviseProcess();
  handleStdoutErrors(process.stdout);
  handleStderrErrors(process.stderr);
  const data: BatchThreadData = {
    argv,
    compileCache: compileCacheRoot(),
    stdout: terminal(process.stdout),
    stderr: terminal(process.stderr),
    // Not process.stdin: opening it would keep this thread reading the terminal.
    stdin: { isTTY: Boolean(process.getBuiltinModule('node:tty').isatty(0)) },
  };
  // dist/batch-thread.cjs (written by scripts/build.mjs beside the bundle) loads the same bundle and
  // calls batchThreadMain. A file, not eval'd code, so NODE_OPTIONS preloads run in the thread as
  // they do here; it opens the compile cache bin/code-cache.js opened here (it is per thread).
  const entry = fileURLToPath(new URL('./batch-thread.cjs', import.meta.url));
  const worker: WorkerThread = new Worker(entry, {
    workerData: data,
    resourceLimits: BATCH_THREAD_LIMITS,
    stdout: true,
    stderr: true,
  });
  const forwarded = [forward(worker.stdout, process.stdout), forward(worker.stderr, process.stderr)];
  controller.signal.addEventListener(
    'abort',
    () => {
      const reason = controller.signal.reason as AbortReason;
      worker.postMessage({ abort: { name: reason.name, message: reason.message, signal: reason.signal, received: reason.received } } satisfies ToWorker);
    },
    { once: true },
  );
  const onResize = () => worker.postMessage({ resize: { stdout: process.stdout.columns, stderr: process.stderr.columns } } satisfies ToWorker);
  if (data.stdout.isTTY) process.stdout.on('resize', onResize);
  if (data.stderr.isTTY) process.stderr.on('resize', onResize);

  // The thread's held files (its journal lock), for this thread to remove should the process end
  // before the thread releases them: stdout failing ends it from here (util/held-files.ts).
  worker.on('message', adoptHeldFile);
  let failure: Error | undefined;
  worker.on('error', (err) => (failure = err));
  const [code] = (await new Promise((resolve) => worker.once('exit', (c: number) => resolve([c])))) as [number];
  // Every byte the worker wrote reaches our stdout and stderr before the process ends.
  await Promise.all(forwarded);
  let exitCode = code;
  if (failure !== undefined) exitCode = await reportFailure(failure, argv);
  process.exitCode = exitCode;
  // Keep-alive sockets and stdin must not hold the process open once the command is done.
  setImmediate(() => process.exit(exitCode));
}

/** Pipes the worker's stream to ours; resolves once it has ended and ours has taken every byte. */
function forward(from: Readable, to: NodeJS.WriteStream): Promise<void> {
  from.pipe(to, { end: false });
  return new Promise<void>((resolve) => {
    from.once('end', () => {
      if (to.writableNeedDrain) to.once('drain', () => resolve());
      else resolve();
    });
  });
}

/** The worker died of something `run` could not catch (it catches every command error): say so, exit 1. */
async function reportFailure(err: Error, argv: string[]): Promise<number> {
  const { CliError } = await import('./errors.js');
  const { renderError } = await import('./output/render-error.js');
  const outOfMemory = (err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
  const error = outOfMemory
    ? new CliError(`msgctl ran out of memory (over ${BATCH_THREAD_LIMITS.maxOldGenerationSizeMb} MB of JavaScript heap) and stopped.`, ExitCode.Failure, [
        'Run the same command again: what was already sent is not sent twice (the batch journal and the import keys see to that).',
      ])
    : err;
  renderError(error, { stderr: process.stderr, json: argv.includes('--json'), verbose: argv.includes('--verbose') });
  return ExitCode.Failure;
}

/** Worker thread: runs the command with the process's real streams as the terminal has them. */
export async function batchThreadMain(run: (argv: string[], options: { io: Io; env: NodeJS.ProcessEnv; signal: AbortSignal }) => Promise<number>): Promise<void> {
  const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
  const data = workerData as BatchThreadData;
  // In a worker these are Node's forwarding streams, not a terminal: give them the terminal's answers.
  Object.assign(process.stdout, data.stdout);
  Object.assign(process.stderr, data.stderr);
  const stdin = process.stdin as NodeJS.ReadStream;
  stdin.isTTY = data.stdin.isTTY;
  const controller = new AbortController();
  parentPort!.on('message', (message: ToWorker) => {
    if ('abort' in message) {
      const { name, message: text, signal, received } = message.abort;
      const reason = Object.assign(new Error(text), { name }, signal === undefined ? {} : { signal }, received === undefined ? {} : { received });
      controller.abort(reason);
    } else {
      for (const [name, stream] of [['stdout', process.stdout], ['stderr', process.stderr]] as const) {
        const columns = message.resize[name];
        if (columns !== undefined && stream.columns !== columns) {
          stream.columns = columns;
          stream.emit('resize');
        }
      }
    }
  });
  parentPort!.unref();
  reportHeldFilesTo(parentPort!);
  const code = await run(data.argv, {
    io: processIo(),
    env: process.env,
    signal: controller.signal,
  });
  // Handed to the main thread before this thread ends (the callbacks run once it has taken them).
  await Promise.all([process.stdout, process.stderr].map((s) => new Promise((resolve) => s.write('', resolve))));
  process.exit(code);
}
