/**
 * Picks the generator for a shell. Scripts are static: the whole command tree
 * is written into them when `msgctl completion <shell>` runs. That keeps every
 * TAB instant and offline (no Node start-up, no network per keypress); the
 * cost is regenerating after an upgrade, which the header says.
 */
import type { Command } from 'commander';
import { completionTree } from './tree.js';
import { bashScript } from './bash.js';
import { zshScript } from './zsh.js';
import { fishScript } from './fish.js';
import { powershellScript } from './powershell.js';

export type Shell = 'bash' | 'zsh' | 'fish' | 'powershell';

export function completionScript(program: Command, shell: Shell, version: string): string {
  const tree = completionTree(program);
  const header = [
    `# ${program.name()} ${shell} completion, generated from the command tree of ${program.name()} ${version}.`,
    `# Regenerate after upgrading: ${program.name()} completion ${shell}`,
  ].join('\n');
  switch (shell) {
    case 'bash':
      return bashScript(tree, header);
    case 'zsh':
      return zshScript(tree, header);
    case 'fish':
      return fishScript(tree, header);
    case 'powershell':
      return powershellScript(tree, header);
  }
}
