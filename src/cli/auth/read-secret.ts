/**
 * Secrets never come from argv (they would show in `ps` and shell history):
 * piped stdin, or a hidden prompt on a terminal.
 */
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { readAll } from '../util/stdin.js';

export async function readSecret(ctx: Context, what: string): Promise<string> {
  let secret: string;
  if (ctx.io.stdin.isTTY) {
    if (!ctx.io.stderr.isTTY) throw new UsageError(`No ${what} given: pipe it on stdin.`);
    secret = await ctx.services.prompter.password(`Paste the ${what} (input hidden):`, ctx.io, ctx.signal);
  } else {
    // Ctrl-C or SIGTERM while waiting on the pipe ends the command (it would wait forever).
    secret = await readAll(ctx.io.stdin, ctx.signal);
  }
  secret = secret.trim();
  if (!secret) throw new UsageError(`No ${what} given: pipe it on stdin or paste it at the prompt.`);
  if (/\s/.test(secret)) throw new UsageError(`The ${what} contains whitespace; give exactly one value.`);
  return secret;
}
