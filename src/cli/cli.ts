/**
 * Entry point: parses argv, runs one command with a Context, and maps what
 * happened to an exit code. `run` is what tests call in-process; `main` wires
 * it to the real process (streams, Ctrl-C, exit).
 */
import { CommanderError, type Command } from 'commander';
import { buildProgram } from './program.js';
import { jsonFieldsOf, type Act } from './commands/kit.js';
import { GLOBAL_OPTIONS_WITH_VALUES, readGlobalOptions } from './commands/global-options.js';
import type { Env, Io, Services } from './context.js';
import { CommandContext } from './command-context.js';
import { defaultServices } from './services.js';
import { ExitCode } from './exit-codes.js';
import { CliError } from './errors.js';
import { superviseProcess } from './signals.js';
import { mainThreadIo } from './process-io.js';
import { whenWritten } from './output/direct-output.js';
import { ReaderGone } from './output/output.js';
import { jsonOnTerminal, terminalSafe } from './output/terminal-text.js';
import { renderHelp, UNWRAPPED_WIDTH } from './help/render.js';
import { helpLayout } from './help/layout.js';

export interface RunOptions {
  io: Io;
  env: Env;
  signal?: AbortSignal;
  /** Test doubles for the outside world (prompts, browser, clock, HTTP transport); the real ones otherwise. */
  services?: Partial<Services>;
  /** Help as commander renders it, unwrapped and unlinked: for prebuilding it (scripts/build.mjs). */
  rawHelp?: boolean;
}

export async function run(givenArgv: string[], { io, env, signal, services, rawHelp }: RunOptions): Promise<number> {
  const argv = jsonFlagValues(givenArgv);
  let exitCode: number = ExitCode.Ok;
  let json = argv.some((a) => a === '--json' || a.startsWith('--json='));
  let verbose = argv.includes('--verbose');
  const abort = signal ?? new AbortController().signal;
  let commandContext: CommandContext | undefined;
  /** What jq failed on, when another error ended the command: said before that error, not lost. */
  let jqAlsoFailed: unknown;

  const act: Act = (handler) => async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const opts = readGlobalOptions(command);
    // Errors are a JSON line only with --json itself (--jq and --template also make opts.json true).
    json = opts.jsonFlag || json;
    verbose = opts.verbose;
    // -o FILE: the command's stdout is that file, renamed into place only if the command succeeds.
    const file = opts.output === undefined ? undefined : (await import('./output/file-output.js')).FileOutput.create(opts.output);
    const ctx = new CommandContext(file ? { ...io, stdout: file } : io, env, opts, abort, { ...defaultServices(env), ...services });
    commandContext = ctx;
    try {
      // --json FIELDS, --jq, --template: a bad one is exit 2 before anything is sent.
      await ctx.out.prepare(opts, jsonFieldsOf(command));
      // commander passes (...positionals, options, command); handlers get (ctx, ...positionals, options).
      const result = await handler(ctx, ...args.slice(0, -1)).catch((err: unknown) => {
        if (err instanceof ReaderGone) return ExitCode.Ok; // the pager was quit: as with `| head`
        throw err;
      });
      if (typeof result === 'number') exitCode = result;
      await ctx.out.finish();
      if (file) await (exitCode === ExitCode.Ok || exitCode === ExitCode.Partial ? file.commit() : file.discard());
    } catch (err) {
      await ctx.out.finish().catch((finished: unknown) => {
        if (finished instanceof CliError && finished.problemCode === 'jq_error') jqAlsoFailed = finished;
      });
      await file?.discard();
      throw err;
    }
  };

  // `msgctl`, `msgctl --help`: nothing below the top level is shown, so nothing below it is built.
  // `msgctl send …`: only `send` is built (see buildProgram).
  const first = firstCommandName(argv);
  const program = buildProgram(act, first === undefined ? { topLevelOnly: true } : { only: first });
  // Help is rendered unwrapped and then wrapped to the terminal (80 columns elsewhere) with its doc
  // links pointing at the installed docs (help/render.ts), exactly as bin/msgctl.js prints the prebuilt text.
  const render = (stream: Io['stdout']) => (s: string) => (rawHelp ? s : renderHelp(s, helpLayout(stream)));
  const output = {
    writeOut: (s: string) => void io.stdout.write(render(io.stdout)(s)),
    writeErr: (s: string) => void io.stderr.write(render(io.stderr)(s)),
    getOutHelpWidth: () => UNWRAPPED_WIDTH,
    getErrHelpWidth: () => UNWRAPPED_WIDTH,
    // Errors are not laid out as help is; they quote the command line, which may carry outside text
    // (a script passes what it read), so they are escaped like data, as renderError escapes every other
    // error. With --json, a usage error is a problem object on one stderr line like every other error.
    outputError: (given: string) => {
      const s = given
        .replace(/^(error: too many arguments[^\n]*?)\.?(\n|$)/, (_, line: string, end: string) => `${line}${jsonWordNote(givenArgv)}.${end}`)
        // `--api-key=msk_…`: what follows the = of an option msgctl does not have may be a secret
        // typed where it does not belong, and error output never shows one: the name is enough.
        .replace(/(unknown option '[^'=\s]*=)[^\n]*'/g, "$1…'");
      if (!json) return void io.stderr.write(terminalSafe(s, { keepLines: true }));
      const detail = s.replace(/^error:\s*/i, '').trim();
      jsonOnTerminal(io.stderr).write(JSON.stringify({ type: 'about:blank', title: 'Usage error', status: null, code: 'usage_error', detail, hints: [], request_id: null, field_errors: [] }) + '\n');
    },
  };
  for (const cmd of [program, ...allCommands(program)]) {
    cmd.exitOverride();
    cmd.configureOutput(output);
    // Point at the command's help after a usage error, as gh does.
    cmd.showHelpAfterError(json ? false : `(run "${commandPath(cmd)} --help" for usage and examples)`);
  }

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version "errors" are successes; anything else commander rejects is a usage error.
      if (err.exitCode === 0) return ExitCode.Ok;
      return ExitCode.Usage;
    }
    const { renderError } = await import('./output/render-error.js');
    // Hints about where the command was talking to (a sandbox not running, a base URL without /v1).
    const baseUrl = await commandContext?.configuredBaseUrl().catch(() => null);
    // Hints about the credential: with MSGCTL_API_KEY set, `auth set-key` and `login` change nothing.
    const credentialSource = await commandContext?.credentialSourceIfKnown();
    // A problem line quotes the service (title, detail): on a terminal, escaped like --json output.
    const rerunWith = commandContext && ((key: string) => commandContext!.rerunWith(key));
    const sink = { stderr: json ? jsonOnTerminal(io.stderr) : io.stderr, json, verbose, baseUrl, credentialSource, rerunWith };
    // Records jq failed on before a lost connection (say) ended a list: their output is missing too.
    if (jqAlsoFailed !== undefined) renderError(jqAlsoFailed, sink);
    return renderError(err, sink);
  }
}


/** For scripts/build.mjs, which writes them to dist/command-line.json for bin/code-cache.js. */
export { GLOBAL_OPTIONS_WITH_VALUES };

/** msgctl(1), for scripts/build.mjs (dist/man/msgctl.1). */
export async function manPage(): Promise<string> {
  const [{ manPage: render }, { TOPICS }, { VERSION }] = await Promise.all([import('./reference/man.js'), import('./help/registry.js'), import('./version.js')]);
  return render(buildProgram(() => async () => undefined), TOPICS, VERSION);
}

/** Every command's path below the root (`['patients', 'list']`), for prebuilding help (scripts/build.mjs). */
export function commandPaths(): string[][] {
  const paths: string[][] = [];
  const walk = (cmd: Command, path: string[]) => {
    for (const sub of cmd.commands) {
      paths.push([...path, sub.name()]);
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(buildProgram(() => async () => undefined), []);
  return paths;
}

/**
 * `--json` takes a field list only from a word that reads as one (`id,name`:
 * lower-case names, digits, _ and commas) and that follows a command word;
 * anything else after it (`--json patients list`, `--json <uuid>`) stays an
 * argument, so `--json` alone keeps working everywhere it did.
 */
export function jsonFlagValues(argv: readonly string[]): string[] {
  const out = [...argv];
  const commandAt = firstCommandIndex(argv);
  for (let i = 0; i < out.length; i++) {
    if (out[i] === '--') break;
    if (out[i] !== '--json') continue;
    const next = out[i + 1];
    const fields = next !== undefined && commandAt !== -1 && i > commandAt && /^[a-z_][a-z0-9_]*(,[a-z_][a-z0-9_]*)*,?$/.test(next) && !/^imp_/.test(next);
    if (fields) {
      out.splice(i, 2, `--json=${next}`);
    } else out[i] = '--json=';
  }
  return out;
}

/**
 * When the word after `--json` stayed an argument (it does not read as a field list: `Body`,
 * `conversation.title`) and so made one too many, a note that says so; '' otherwise.
 */
function jsonWordNote(argv: readonly string[]): string {
  const at = argv.indexOf('--json');
  const word = at >= 0 ? argv[at + 1] : undefined;
  // Only where --json could take a field list (after the command word), and only for a word that
  // reads as field names written another way (First_Name, conversation.title), never an id.
  if (word === undefined || at < firstCommandIndex(argv) || !/^[A-Za-z_][\w.]*(,[A-Za-z_][\w.]*)*$/.test(word) || jsonFlagValues(argv).includes(`--json=${word}`)) return '';
  const way = word.includes('.') ? `--json takes top-level fields; for a nested one use --jq '.${word.split(',')[0]}'` : `field lists are lower-case names and commas, as --json ${word.toLowerCase()}`;
  return ` ("${word}" after --json was read as an argument: ${way})`;
}

function firstCommandIndex(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return i + 1 < argv.length ? i + 1 : -1;
    if (!word.startsWith('-')) return i;
    if (GLOBAL_OPTIONS_WITH_VALUES.has(word)) i++;
  }
  return -1;
}

/** The first word of argv that names a command, if any. */
export function firstCommandName(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return argv[i + 1];
    if (!word.startsWith('-')) return word;
    if (GLOBAL_OPTIONS_WITH_VALUES.has(word)) i++;
  }
  return undefined;
}

/**
 * `send … --csv …` and `imports create …`: the commands whose work grows with a
 * file, run in a worker thread with a bounded heap (batch-thread.ts). Decided
 * from the words alone, so every other command starts as fast as before. The
 * thread runs the same `run`, but with an empty stdin: right for these two
 * commands, which never read stdin or prompt.
 */
export function runsInBatchThread(argv: readonly string[]): boolean {
  if (argv.includes('--help') || argv.includes('-h')) return false;
  const command = firstCommandName(argv);
  if (command === 'send') return argv.some((a) => a === '--csv' || a.startsWith('--csv='));
  if (command === 'imports') return argv.includes('create');
  return false;
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function* allCommands(cmd: Command): Generator<Command> {
  for (const sub of cmd.commands) {
    yield sub;
    yield* allCommands(sub);
  }
}

export async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  // `send --csv` and `imports create` run in a worker thread with a bounded heap (batch-thread.ts).
  if (runsInBatchThread(argv)) return (await import('./batch-thread.js')).runInBatchThread(argv);
  const controller = superviseProcess();
  const io = mainThreadIo();
  let code = await run(argv, { io, env: process.env, signal: controller.signal });
  // The end of a long answer may still wait in Node's stream for a slow reader (direct-output.ts).
  // After Ctrl-C or SIGTERM the reader may be the reason the user stopped (a full pipe nobody
  // reads, a terminal on hold): what is still queued gets a moment, not the whole grace period.
  const delivered = await Promise.race([whenWritten(io.stdout, io.stderr).then(() => true), afterInterrupt(controller.signal, INTERRUPTED_FLUSH_MS).then(() => false)]);
  // Stopped while its answer was still on the way: it did not get through, so not 0. (A command
  // that ends on Ctrl-C by design, such as --follow, exits 0 when what it printed got through.)
  if (!delivered && code === ExitCode.Ok) code = (controller.signal.reason as { signal?: string })?.signal === 'SIGTERM' ? ExitCode.Terminated : ExitCode.Interrupted;
  process.exitCode = code;
  // Keep-alive sockets and stdin must not hold the process open once the command is done. At
  // once, not on a later turn of the event loop: everything is written (above), and such a turn
  // only ran the young-generation garbage collection V8 had asked for meanwhile, ~2–5 ms spent on
  // memory about to be given back (bench/README.md, History).
  process.exit(code);
}

/** How long an interrupted command waits for queued output before it exits (below the 5 s grace period). */
const INTERRUPTED_FLUSH_MS = 250;

/** Resolves `ms` after `signal` aborts (at once counted from now if it already has); never otherwise. */
function afterInterrupt(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const later = () => setTimeout(resolve, ms).unref();
    if (signal.aborted) later();
    else signal.addEventListener('abort', later, { once: true });
  });
}

/** The worker thread of batch-thread.ts: runs the command it was given, as main() would. */
export async function batchThreadMain(): Promise<void> {
  const { batchThreadMain } = await import('./batch-thread.js');
  await batchThreadMain(run);
}
