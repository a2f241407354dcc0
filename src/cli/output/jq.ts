/**
 * `--jq EXPR`: jq itself (jq-wasm, the jq maintainers' WebAssembly build),
 * loaded only when the flag is given. The program is compiled against `null`
 * before anything is sent, so a syntax error is exit 2 with jq's own message.
 * Records go through it a page at a time, as a stream of JSON texts, the way
 * `msgctl … --json | jq EXPR` would see them; strings print raw (`jq -r`),
 * everything else as compact JSON, as gh's --jq does.
 */
import { UsageError } from '../errors.js';

export interface JqFilter {
  /** Runs the program over `input` (JSON texts, one per line); jq's output, and its error messages if any. */
  run(input: string): { stdout: string; errors: string };
}

const FLAGS = ['-r', '-c'];
/** jq's exit status for a program that does not compile. */
const COMPILE_ERROR = 3;

export async function compileJq(expression: string): Promise<JqFilter> {
  const { loadJq } = await import('jq-wasm');
  const jq = await loadJq();
  const check = jq.raw('null', expression, FLAGS);
  if (check.exitCode === COMPILE_ERROR) {
    throw new UsageError(`--jq: ${check.stderr.trim()}`, ['The expression is jq\'s own language: https://jqlang.org/manual/ (msgctl help formatting).']);
  }
  // jq-wasm trims what jq printed, which took the whitespace off the first and last line of
  // every page (a `@tsv` row ending in an empty field lost its tab). So the program prints a
  // line no record can print before and after each record's output, and those lines are taken
  // out again: what is left is jq's output byte for byte (but for the last record of a page that
  // stops on an error, whose last line jq-wasm still trims). Two newlines before `)`: the first
  // ends a comment the expression may end with, and a comment ending in `\` takes the next line too.
  const sentinel = `msgctl-jq-${globalThis.crypto.randomUUID()}`;
  const line = `${sentinel}\n`;
  const wrapped = `${JSON.stringify(sentinel)}, (${expression}\n\n), ${JSON.stringify(sentinel)}`;
  const wrappedCheck = jq.raw('null', wrapped, FLAGS);
  if (wrappedCheck.exitCode === COMPILE_ERROR) throw new UsageError(`--jq: this expression cannot be run as msgctl runs it (one record at a time): ${wrappedCheck.stderr.trim()}`);
  return {
    run(input) {
      const result = jq.raw(input, wrapped, FLAGS);
      // The trim took the newline after the last sentinel (or, when jq stopped on an error, after its last output).
      return { stdout: `${result.stdout}\n`.split(line).join(''), errors: result.stderr.trim() };
    },
  };
}
