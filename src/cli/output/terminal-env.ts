/**
 * What the terminal conventions allow (product.md §2 "Colour and terminals"),
 * decided the way gh does:
 *
 * - colour is forced by --color always, CLICOLOR_FORCE (not 0) or FORCE_COLOR
 *   (1, 2, 3, true or empty), whatever else says;
 * - it is off with --color never / --no-color, NO_COLOR (any value),
 *   CLICOLOR=0, FORCE_COLOR=0, TERM=dumb;
 * - otherwise the profile's `color` setting, and then `auto`: on where the
 *   stream is a terminal.
 *
 * Cursor control (a progress line redrawn in place) needs a terminal and is
 * off under NO_COLOR, CLICOLOR=0, TERM=dumb and --plain: progress is then
 * occasional plain lines, as in a log.
 */
import type { ColorMode } from './types.js';

type Env = Record<string, string | undefined>;

/** Flags first, then the environment, then the profile; `auto` when nothing says. */
export function colorMode(flag: ColorMode | undefined, env: Env, profile?: ColorMode): ColorMode {
  if (flag) return flag;
  if (forcedByEnv(env)) return 'always';
  if (disabledByEnv(env)) return 'never';
  return profile ?? 'auto';
}

/** Whether text for `stream` gets colour under `mode`. */
export function colorFor(mode: ColorMode, stream: { isTTY?: boolean }, env: Env): boolean {
  if (mode !== 'auto') return mode === 'always';
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

/** Whether progress may redraw a line on `stream` (carriage return, erase line). */
export function cursorControl(stream: { isTTY?: boolean }, env: Env, plain: boolean): boolean {
  return Boolean(stream.isTTY) && !plain && env.TERM !== 'dumb' && !env.NO_COLOR && env.CLICOLOR !== '0';
}

function forcedByEnv(env: Env): boolean {
  const force = env.CLICOLOR_FORCE;
  if (force !== undefined && force !== '' && force !== '0') return true;
  const fc = env.FORCE_COLOR;
  return fc !== undefined && fc !== '0' && fc.toLowerCase() !== 'false';
}

function disabledByEnv(env: Env): boolean {
  return Boolean(env.NO_COLOR) || env.CLICOLOR === '0' || env.FORCE_COLOR === '0' || env.FORCE_COLOR?.toLowerCase() === 'false' || env.TERM === 'dumb';
}
