/** `msgctl exports create|get|download`: conversation exports; one module per verb. */
import type { Command } from 'commander';
import { examples, type Act } from '../kit.js';
import * as create from './create.js';
import * as get from './get.js';
import * as download from './download.js';

export function registerExports(program: Command, act: Act): void {
  const exportsCmd = program.command('exports').description('Export a conversation\'s messages to a file (OAuth)');
  examples(exportsCmd, [
    'ID=$(msgctl exports create "$CONV" --wait --json | jq -r .id)',
    'msgctl exports download "$ID" -o conversation.json',
  ]);
  for (const verb of [create, get, download]) verb.register(exportsCmd, act);
}
