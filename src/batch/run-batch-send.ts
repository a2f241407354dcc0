/**
 * `msgctl send --csv`: replaced by the batch-send work (issue 7).
 */
import type { Context } from '../context.js';
import type { SendFlags } from '../commands/send.js';
import { CliError } from '../errors.js';

export async function runBatchSend(_ctx: Context, _flags: SendFlags): Promise<number> {
  throw new CliError('msgctl send --csv is not available in this build yet.');
}
