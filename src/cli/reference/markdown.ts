/**
 * docs/reference.md, rendered from the commander tree: every visible command
 * with its usage, description, arguments, options (defaults and fixed values)
 * and examples. Generated, so the reference is exactly what --help says.
 */
import type { Argument, Command, Option } from 'commander';
import { choicesOf, examplesOf } from '../commands/kit.js';

export function referenceMarkdown(program: Command): string {
  const commands = [...visibleTree(program)];
  const out: string[] = [
    `# ${program.name()} command reference`,
    '',
    '<!-- Generated from the command tree by `npm run docs:reference` (scripts/gen-reference.mjs). Do not edit by hand. -->',
    '',
    prose(program.description()),
    '',
    `Every command also takes \`-h, --help\`, and the global options below. Run \`${program.name()} <command> --help\` for the same text in the terminal.`,
    '',
    ...commands.map((cmd) => `- [${fullName(cmd)}](#${anchor(fullName(cmd))}): ${prose(cmd.description())}`),
    '',
    '## Global options',
    '',
    ...optionTable(visible(program).filter((o) => o.long !== '--help')),
  ];
  for (const cmd of commands) out.push('', ...section(cmd));
  return out.join('\n') + '\n';
}

function section(cmd: Command): string[] {
  const help = cmd.createHelp();
  const lines = [`## ${fullName(cmd)}`, '', prose(cmd.description()), '', `Usage: \`${help.commandUsage(cmd)}\``];
  const subcommands = help.visibleCommands(cmd).filter((sub) => cmd.commands.includes(sub));
  if (subcommands.length > 0) {
    lines.push('', 'Subcommands: ' + subcommands.map((sub) => `[${sub.name()}](#${anchor(fullName(sub))})`).join(', '));
  }
  if (cmd.registeredArguments.length > 0) {
    lines.push('', '| argument | description | values |', '| --- | --- | --- |');
    for (const arg of cmd.registeredArguments) lines.push(argumentRow(arg));
  }
  const options = visible(cmd).filter((o) => o.long !== '--help');
  if (options.length > 0) lines.push('', ...optionTable(options));
  const examples = examplesOf(cmd) ?? [];
  if (examples.length > 0) lines.push('', 'Examples:', '', '```sh', ...examples, '```');
  return lines;
}

function argumentRow(arg: Argument): string {
  const name = arg.required ? `<${arg.name()}${arg.variadic ? '...' : ''}>` : `[${arg.name()}${arg.variadic ? '...' : ''}]`;
  const values = choicesOf(arg.parseArg) ?? arg.argChoices ?? [];
  return `| ${code(name)} | ${cell(arg.description)} | ${values.map(code).join(', ')} |`;
}

function optionTable(options: Option[]): string[] {
  const rows = options.map((o) => {
    const values = choicesOf(o.parseArg) ?? o.argChoices ?? [];
    return `| ${code(o.flags)} | ${cell(o.description)} | ${defaultOf(o)} | ${values.map(code).join(', ')} |`;
  });
  return ['| option | description | default | values |', '| --- | --- | --- | --- |', ...rows];
}

/** Defaults worth stating: a value, not the implicit false of an absent switch. */
function defaultOf(option: Option): string {
  if (option.defaultValueDescription) return cell(option.defaultValueDescription);
  const value: unknown = option.defaultValue;
  if (value === undefined || value === false) return '';
  return code(Array.isArray(value) ? value.join(', ') : String(value));
}

function* visibleTree(cmd: Command): Generator<Command> {
  for (const sub of cmd.createHelp().visibleCommands(cmd)) {
    if (!cmd.commands.includes(sub)) continue; // commander's implicit `help` command
    yield sub;
    yield* visibleTree(sub);
  }
}

function visible(cmd: Command): Option[] {
  return cmd.createHelp().visibleOptions(cmd);
}

function fullName(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** GitHub's heading anchors: lower case, spaces to dashes, most punctuation dropped. */
function anchor(heading: string): string {
  return heading.toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Code inside a table cell: GitHub splits cells at | even inside backticks unless escaped. */
function code(text: string): string {
  return `\`${oneLine(text).replace(/\|/g, '\\|')}\``;
}

/** Descriptions as Markdown text: one line, and <file> stays text instead of becoming an HTML tag. */
function prose(text: string): string {
  return oneLine(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text for a table cell: prose with pipes escaped. */
function cell(text: string | undefined): string {
  return prose(text ?? '').replace(/\|/g, '\\|');
}
