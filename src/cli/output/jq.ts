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
  return {
    run(input) {
      const result = jq.raw(input, expression, FLAGS);
      return { stdout: result.stdout, errors: result.stderr.trim() };
    },
  };
}
