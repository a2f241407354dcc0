/** `msgctl completion <shell>`: a completion script generated from the command tree (src/cli/completion). */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { choices, examples, type Act } from '../kit.js';

/** Kept here (not imported from src/completion) so `msgctl --help` loads no generator code. */
const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;

type Shell = (typeof SHELLS)[number];

export interface CompletionOptions {
  shell: Shell;
  /** The command tree the script completes. */
  program: Command;
}

export async function run(ctx: Context, opts: CompletionOptions): Promise<void> {
  const [{ completionScript }, { VERSION }] = await Promise.all([import('../../completion/script.js'), import('../../version.js')]);
  await ctx.out.write(completionScript(opts.program, opts.shell, VERSION));
}

export function registerCompletion(program: Command, act: Act): void {
  const completion = program
    .command('completion')
    .description('Print a shell completion script for bash, zsh, fish or PowerShell (commands, flags and fixed flag values)')
    .addArgument(new Argument('<shell>', 'bash, zsh, fish or powershell').argParser(choices(SHELLS)))
    .action(act((ctx, shell: Shell) => run(ctx, { shell, program: rootOf(completion) })));
  completion.addHelpText(
    'after',
    `
Install:
  bash  for this shell only:  source <(msgctl completion bash)
        for every new shell:   msgctl completion bash > ~/.local/share/bash-completion/completions/msgctl
  zsh   msgctl completion zsh > "\${fpath[1]}/_msgctl"   (or any directory in $fpath; then: compinit)
        or in ~/.zshrc after compinit:  source <(msgctl completion zsh)
  fish  msgctl completion fish > ~/.config/fish/completions/msgctl.fish
  PowerShell (5.1 and 7), in your profile (notepad $PROFILE):
        msgctl completion powershell | Out-String | Invoke-Expression

The script holds msgctl's commands and flags as of its version: regenerate it after upgrading.`,
  );
  examples(completion, [
    'source <(msgctl completion bash)',
    'msgctl completion zsh > "${fpath[1]}/_msgctl"',
    'msgctl completion fish > ~/.config/fish/completions/msgctl.fish',
    'msgctl completion powershell | Out-String | Invoke-Expression',
  ]);
}

function rootOf(cmd: Command): Command {
  let root = cmd;
  while (root.parent) root = root.parent;
  return root;
}
