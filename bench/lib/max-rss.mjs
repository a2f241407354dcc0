// Preload (NODE_OPTIONS=--import=…/max-rss.mjs): at exit, appends this process's
// peak resident memory in MB to $MSGCTL_BENCH_RSS_FILE (any OS; no /proc polling).
import { appendFileSync } from 'node:fs';

const file = process.env.MSGCTL_BENCH_RSS_FILE;
if (file) process.on('exit', () => appendFileSync(file, `${process.resourceUsage().maxRSS / 1024}\n`));
