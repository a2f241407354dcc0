/** `msgctl sandbox faults add|list|clear`: one module per verb. */
import type { Command } from 'commander';
import { examples, type Act } from '../../kit.js';
import * as add from './add.js';
import * as list from './list.js';
import * as clear from './clear.js';

export function registerSandboxFaults(sandbox: Command, act: Act): void {
  const faults = sandbox
    .command('faults')
    .description('Queue faults in a running sandbox: each applies once, to the next API request it matches (exactly-once and retry tests)');
  examples(faults, [
    'msgctl sandbox faults add --status 503 --method POST --path /patient-messages',
    'msgctl sandbox faults list',
    'msgctl sandbox faults clear',
  ]);
  for (const verb of [add, list, clear]) verb.register(faults, act);
}
