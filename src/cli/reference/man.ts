/**
 * msgctl(1), the man page, written at build time from the command tree and
 * the help topics (scripts/build.mjs → dist/man/msgctl.1, installed by npm
 * through package.json's "man"), so `man msgctl` is what --help says, in one
 * page: every command with its arguments, options and examples, then the
 * environment, exit status, output and dates topics.
 */
import type { Argument, Command, Option } from 'commander';
import { choicesOf, examplesOf } from '../commands/kit.js';
import type { HelpTopic } from '../help/topic.js';

/** Text for roff: backslashes and hyphens escaped, anything beyond ASCII as a \[uXXXX] glyph (troff reads bytes). */
function esc(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/[^\x00-\x7f]/gu, (c) => `\\[u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}
function line(text: string): string {
  const escaped = esc(text);
  return /^[.']/.test(escaped) ? `\\&${escaped}` : escaped;
}
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function manPage(program: Command, topics: readonly HelpTopic[], version: string): string {
  const out: string[] = [
    `.TH MSGCTL 1 "" "msgctl ${esc(version)}" "User Commands"`,
    '.SH NAME',
    `msgctl \\- ${line(oneLine(program.description()))}`,
    '.SH SYNOPSIS',
    '.B msgctl',
    '[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIsubcommand\\fR] [\\fIoptions\\fR] [\\fIarguments\\fR]',
    '.br',
    '.B msgctl help',
    '[\\fItopic\\fR | \\fIcommand\\fR]',
    '.SH DESCRIPTION',
    line(
      'msgctl is the command line for clinic operators on the Messaging Service: patient messages, CSV roster imports, recall campaigns and message traffic, from a terminal, a script or cron. msgctl sandbox runs the whole API locally, so everything can be tried without an account.',
    ),
    '.PP',
    line('Every command has --help with examples; msgctl help TOPIC explains environment, exit-codes, formatting and dates (also below). The docs/ folder of the installed package has the guides.'),
    '.SH GLOBAL OPTIONS',
    ...options(visibleOptions(program).filter((o) => o.long !== '--help')),
    '.SH COMMANDS',
  ];
  for (const cmd of visibleTree(program)) out.push(...section(cmd));
  const byName = new Map(topics.map((t) => [t.name, t]));
  for (const [name, title] of [['environment', 'ENVIRONMENT'], ['exit-codes', 'EXIT STATUS'], ['formatting', 'OUTPUT'], ['dates', 'DATES']] as const) {
    const topic = byName.get(name);
    if (topic) out.push(`.SH ${title}`, ...topicBody(topic.text));
  }
  out.push(
    '.SH FILES',
    '.TP',
    '.I ~/.config/msgctl/config.json',
    line('Profiles and their settings ($XDG_CONFIG_HOME/msgctl; %APPDATA%\\msgctl on Windows). Secrets are in the OS keychain, or in credentials.json beside it only after --insecure-storage.'),
    '.TP',
    '.I ~/.local/state/msgctl/',
    line('Batch journals of send --csv, and the ids of recent imports ($XDG_STATE_HOME/msgctl; %LOCALAPPDATA%\\msgctl on Windows).'),
    '.SH SEE ALSO',
    line('msgctl help environment, msgctl help exit-codes, msgctl doctor, and the docs/ folder installed with msgctl (README.md, getting-started.md, scripting.md, reference.md).'),
  );
  return out.join('\n') + '\n';
}

function section(cmd: Command): string[] {
  const help = cmd.createHelp();
  const lines = [`.SS "${esc(help.commandUsage(cmd).replace(/"/g, "'"))}"`];
  lines.push(line(oneLine(cmd.description())));
  const args = cmd.registeredArguments.filter((a) => a.description);
  if (args.length > 0) lines.push('.PP', 'Arguments:', ...args.flatMap(argument));
  const opts = visibleOptions(cmd).filter((o) => o.long !== '--help');
  if (opts.length > 0) lines.push('.PP', 'Options:', ...options(opts));
  const examples = examplesOf(cmd) ?? [];
  if (examples.length > 0) lines.push('.PP', 'Examples:', '.PP', '.RS 4', '.nf', ...examples.map(line), '.fi', '.RE');
  return lines;
}

function argument(arg: Argument): string[] {
  const name = arg.required ? `<${arg.name()}${arg.variadic ? '...' : ''}>` : `[${arg.name()}${arg.variadic ? '...' : ''}]`;
  const values = choicesOf(arg.parseArg) ?? arg.argChoices ?? [];
  return ['.TP', `.I ${esc(name)}`, line(oneLine(arg.description) + (values.length ? ` (${values.join(', ')})` : ''))];
}

function options(list: Option[]): string[] {
  return list.flatMap((o) => {
    const values = choicesOf(o.parseArg) ?? o.argChoices ?? [];
    const extra = [values.length ? `values: ${values.join(', ')}` : '', o.defaultValue !== undefined && o.defaultValue !== false ? `default: ${String(o.defaultValue)}` : '']
      .filter(Boolean)
      .join('; ');
    return ['.TP', `.B ${esc(o.flags)}`, line(oneLine(o.description) + (extra ? ` (${extra})` : ''))];
  });
}

/** A topic's text: prose as paragraphs, `  term  description` lines as tagged paragraphs, examples as they are. */
function topicBody(text: string): string[] {
  const out: string[] = [];
  let inExamples = false;
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    const item = /^ +(\S.*?) {2,}(\S.*)$/.exec(raw);
    if (!raw.startsWith(' ')) {
      if (inExamples) out.push('.fi', '.RE');
      inExamples = /^Examples\b/.test(raw);
      out.push('.PP', line(raw));
      if (inExamples) out.push('.PP', '.RS 4', '.nf');
    } else if (inExamples) out.push(line(raw.trim()));
    else if (item) out.push('.TP', `.B ${esc(item[1]!)}`, line(item[2]!));
    else out.push(line(raw.trim()));
  }
  if (inExamples) out.push('.fi', '.RE');
  return out;
}

function* visibleTree(cmd: Command): Generator<Command> {
  for (const sub of cmd.createHelp().visibleCommands(cmd)) {
    if (!cmd.commands.includes(sub)) continue; // commander's implicit `help` command of a group
    yield sub;
    yield* visibleTree(sub);
  }
}

function visibleOptions(cmd: Command): Option[] {
  return cmd.createHelp().visibleOptions(cmd);
}
