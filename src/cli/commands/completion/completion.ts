/** `msgctl completion <shell>`: a completion script generated from the command tree (src/cli/completion). */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { choices, examples, type Act } from '../kit.js';

/** Kept here (not imported from src/completion) so `msgctl --help` loads no generator code. */
const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;

type Shell = (typeof SHELLS)[number];

/**
 * Install lines for a completion that loads in every new shell, as the help
 * prints them. Each creates its directory (a fresh account has none of them)
 * and names a path that any shell expands the same way: `${fpath[1]}` would
 * be empty outside zsh and write `/_msgctl`. test/e2e/completion.test.ts runs
 * these exact lines in real bash, zsh and fish.
 */
export const INSTALL_LINES = {
  bash: 'mkdir -p ~/.local/share/bash-completion/completions && msgctl completion bash > ~/.local/share/bash-completion/completions/msgctl',
  zsh: 'mkdir -p ~/.zfunc && msgctl completion zsh > ~/.zfunc/_msgctl',
  fish: 'mkdir -p ~/.config/fish/completions && msgctl completion fish > ~/.config/fish/completions/msgctl.fish',
} as const;

/**
 * PowerShell's profile ($PROFILE) and its folder do not exist on a fresh account, where
 * `notepad $PROFILE` cannot save: the first line creates both (and never empties a profile
 * that exists, which `New-Item -Force` alone would), the second appends the loading line.
 */
export const POWERSHELL_INSTALL_LINES = [
  'if (!(Test-Path $PROFILE)) { New-Item -ItemType File -Force $PROFILE | Out-Null }',
  "Add-Content $PROFILE 'msgctl completion powershell | Out-String | Invoke-Expression'",
] as const;

/** What ~/.zshrc needs, before `compinit`, for ~/.zfunc to be searched. */
export const ZSHRC_LINE = 'fpath=(~/.zfunc $fpath); autoload -Uz compinit; compinit';

export interface CompletionOptions {
  shell: Shell;
  /** The command tree the script completes. */
  program: Command;
}

export async function run(ctx: Context, opts: CompletionOptions): Promise<void> {
  const [{ completionScript }, { VERSION }] = await Promise.all([import('../../completion/script.js'), import('../../version.js')]);
  await ctx.out.write(completionScript(opts.program, opts.shell, VERSION));
}

export function registerCompletion(program: Command, act: Act, runF: typeof run = run): void {
  const completion = program
    .command('completion')
    .description('Print a shell completion script for bash, zsh, fish or PowerShell (commands, flags and fixed flag values)')
    .addArgument(new Argument('<shell>', 'bash, zsh, fish or powershell').argParser(choices(SHELLS)))
    .action(act((ctx, shell: Shell) => runF(ctx, { shell, program: rootOf(completion) })));
  completion.addHelpText(
    'after',
    `
Install (each line creates the directory it writes to):
  bash  for this shell only:  source <(msgctl completion bash)
        for every new shell (needs the bash-completion package):
          ${INSTALL_LINES.bash}
  zsh   ${INSTALL_LINES.zsh}
        and in ~/.zshrc, instead of a plain compinit:
          ${ZSHRC_LINE}
        or in ~/.zshrc after compinit:  source <(msgctl completion zsh)
  fish  ${INSTALL_LINES.fish}
  PowerShell (5.1 and 7), for this session only:
          msgctl completion powershell | Out-String | Invoke-Expression
        for every new session (creates your profile if there is none yet):
          ${POWERSHELL_INSTALL_LINES[0]}
          ${POWERSHELL_INSTALL_LINES[1]}

The script holds msgctl's commands and flags as of its version: regenerate it after upgrading.`,
  );
  examples(completion, [
    'source <(msgctl completion bash)',
    INSTALL_LINES.zsh,
    INSTALL_LINES.fish,
    'msgctl completion powershell | Out-String | Invoke-Expression',
  ]);
}

function rootOf(cmd: Command): Command {
  let root = cmd;
  while (root.parent) root = root.parent;
  return root;
}
