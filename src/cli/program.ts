/**
 * The commander tree. Only command definitions load here; handlers import
 * their heavy modules (API client, CSV, prompts, sandbox) when they run, so
 * `msgctl --help` stays close to bare Node start-up.
 */
import { Command } from 'commander';
import { VERSION } from './version.js';
import type { Act } from './commands/kit.js';
import { globalOptions } from './commands/global-options.js';
import { registerAuth } from './commands/auth/index.js';
import { registerLogin } from './commands/login/login.js';
import { registerOrg } from './commands/org/show.js';
import { registerSend } from './commands/send/send.js';
import { registerPatients } from './commands/patients/index.js';
import { registerMessages } from './commands/messages/index.js';
import { registerConversations } from './commands/conversations/index.js';
import { registerCampaigns } from './commands/campaigns/index.js';
import { registerImports } from './commands/imports/index.js';
import { registerMe } from './commands/me/index.js';
import { registerExports } from './commands/exports/index.js';
import { registerEvents } from './commands/events/index.js';
import { registerStaff } from './commands/staff/index.js';
import { registerApi } from './commands/api/api.js';
import { registerSandbox } from './commands/sandbox/command.js';
import { registerCompletion } from './commands/completion/completion.js';
import { registerCompleteValues } from './commands/completion/complete-values.js';
import { registerHelp, TOPIC_NAMES } from './commands/help/help.js';
import { registerDoctor } from './commands/doctor/doctor.js';
import { registerConfig } from './commands/config/index.js';
import { registerProfiles } from './commands/profiles/index.js';
import { registerReference } from './commands/reference/reference.js';

/**
 * A top-level command whose subcommands are not built: enough for the root
 * `msgctl --help` (which lists only top-level commands), at a fraction of the
 * start-up cost of the whole tree. Anything called on a would-be subcommand
 * is absorbed by a chainable no-op.
 */
class TopLevelOnly extends Command {
  override command(): any {
    return IGNORED;
  }
}
class RootOfTopLevelOnly extends Command {
  override createCommand(name?: string): Command {
    return new TopLevelOnly(name);
  }
}
const IGNORED: any = new Proxy(function ignored() {}, {
  get: () => IGNORED,
  apply: () => IGNORED,
});

/** Commands that read the whole tree (completion scripts, the reference) or look names up in it (help). */
const WHOLE_TREE_COMMANDS = new Set(['completion', '__reference', 'help']);

/**
 * Every top-level command by name (the names each register function adds), in help order. `msgctl send …` registers `send` alone:
 * the other commands' flags, help and examples are never built (start-up cost).
 * test/unit/program-top-level.test.ts holds this list equal to the tree.
 */
export const TOP_LEVEL: readonly (readonly [readonly string[], (program: Command, act: Act) => void])[] = [
  [['login'], registerLogin],
  [['auth', 'logout'], registerAuth],
  [['org'], registerOrg],
  [['send'], registerSend],
  [['patients'], registerPatients],
  [['messages'], registerMessages],
  [['conversations'], registerConversations],
  [['campaigns'], registerCampaigns],
  [['imports'], registerImports],
  [['me'], registerMe],
  [['exports'], registerExports],
  [['events'], registerEvents],
  [['staff'], registerStaff],
  [['api'], registerApi],
  [['sandbox'], registerSandbox],
  [['config'], registerConfig],
  [['profiles'], registerProfiles],
  [['doctor'], registerDoctor],
  [['completion'], registerCompletion],
  [['help'], registerHelp],
  [['__reference'], registerReference],
  [['__complete'], registerCompleteValues],
];

export interface BuildOptions {
  /** Build only the top level (for the root help); subcommands are skipped. */
  topLevelOnly?: boolean;
  /** Build this top-level command alone, in full (the word argv starts with). */
  only?: string;
}

export function buildProgram(act: Act, options: BuildOptions = {}): Command {
  const only = options.only;
  const single = only !== undefined && !options.topLevelOnly && !WHOLE_TREE_COMMANDS.has(only) ? TOP_LEVEL.find(([names]) => names.includes(only)) : undefined;
  // An unknown word (a typo, an alias) gets the whole tree, so commander answers (and suggests) as it always does.
  if (single) return buildTree(act, new Command('msgctl'), [single]);
  return buildTree(act, options.topLevelOnly ? new RootOfTopLevelOnly('msgctl') : new Command('msgctl'), TOP_LEVEL);
}

function buildTree(act: Act, root: Command, commands: typeof TOP_LEVEL): Command {
  const program = root
    .description('Send and manage clinic patient messages from the shell, with a local sandbox to try everything.')
    .version(VERSION, '-V, --version', 'print the msgctl version')
    .helpOption('-h, --help', 'show help for a command')
    .showSuggestionAfterError(true)
    // Every command's help lists the options it inherits (--json, --profile…), as gh's INHERITED FLAGS do.
    .configureHelp({ showGlobalOptions: true });
  for (const option of globalOptions()) program.addOption(option);
  program.addHelpText(
    'after',
    `
Examples:
  msgctl sandbox --write-profile            # start a local sandbox (another terminal)
  msgctl --profile sandbox send --to "(555) 555-0123" "Your results are ready"
  msgctl messages list --after 2026-11-01 --all --json | jq .body

Exit codes: 0 ok, 1 failure, 2 usage (nothing sent), 3 auth, 4 not found, 5 conflict, 6 validation, 7 rate limited, 8 unavailable, 10 batch partly failed (msgctl help exit-codes).
Help topics: ${TOPIC_NAMES.map((t) => `msgctl help ${t}`).join(', ')}.
Docs: man msgctl, and docs/README.md`,
  );

  for (const [, register] of commands) register(program, act);
  // \`msgctl help\` is ours (topics, and exit 2 for an unknown word); groups keep commander's \`help [command]\`.
  program.helpCommand(false);
  return program;
}
