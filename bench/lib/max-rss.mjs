// Preload (NODE_OPTIONS=--import=…/max-rss.mjs): at exit, appends this process's
// peak resident memory in MB to $MSGCTL_BENCH_RSS_FILE (any OS; no /proc polling).
// A worker thread loads it too (send --csv, imports create: src/cli/batch-thread.ts)
// and appends at its own exit; the main thread's line, at process exit, is last.
import { appendFileSync } from 'node:fs';

const file = process.env.MSGCTL_BENCH_RSS_FILE;
if (file) process.on('exit', () => appendFileSync(file, `${process.resourceUsage().maxRSS / 1024}\n`));
