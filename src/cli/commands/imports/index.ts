/** `msgctl imports create|get` (docs/imports.md): one module per verb. */
import type { Command } from 'commander';
import { examples, type Act } from '../kit.js';
import * as create from './create.js';
import * as get from './get.js';

export function registerImports(program: Command, act: Act): void {
  const imports = program.command('imports').description('Import patients from a CSV file and follow imports (docs/imports.md)');
  examples(imports, ['msgctl imports create roster.csv --wait', 'msgctl imports get imp_3f0c2a4e8b1d4c369a512d0c --wait']);
  for (const verb of [create, get]) verb.register(imports, act);
}
