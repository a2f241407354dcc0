/**
 * Keeps a long batch's memory flat (docs/scripting.md, "Memory and speed").
 *
 * Nothing a batch keeps grows with the file, yet peak RSS went from 89 MB at
 * 1,000 rows to 141 MB at 20,000. The growth was V8's heap sizing, not data:
 * it doubles the young generation (where new objects are made) each time the
 * bytes that survived collections since the last doubling exceed its size,
 * and shrinks it only when a program allocates under ~1 MB/s. Every row
 * allocates (request, response, journal line), so over a long file the young
 * generation grew from 17 to 67 MB, and the old generation filled with the
 * few objects each collection promotes before a full collection ran.
 *
 * V8's memory-saving mode (the one Chrome uses for background tabs) keeps
 * both small: the young generation stays as start-up left it, and full
 * collections come at a few MB of growth rather than tens. Collections come
 * more often but each is cheap, since little of a row outlives it.
 * `--max-semi-space-size` is read only when the process starts, and msgctl
 * is started by a shebang or npm's shims, which cannot pass Node flags
 * everywhere; this flag is read at each collection, so setting it once the
 * batch begins takes effect.
 */
const { setFlagsFromString } = process.getBuiltinModule('node:v8');

let applied = false;

export function favourSteadyMemory(): void {
  if (applied) return;
  applied = true;
  setFlagsFromString('--optimize-for-size');
}
