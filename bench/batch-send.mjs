// `msgctl send --csv` throughput against its ceiling: a bare undici loop
// sending the same 5,000 POST bodies with fresh Idempotency-Keys at the same
// concurrency. Each measurement gets a fresh sandbox (no rate limit, no
// chaos), so all of them create the same 5,000 patients; the order rotates
// every round so a machine getting busier or quieter favours none of them.
//
//   msgctl          the built CLI end to end: process start-up, validation
//                   pass, journal fsyncs, per-row JSON output; spawn to exit.
//   ceiling (cold)  the bare loop in a fresh Node process, spawn to exit: the
//                   like-for-like ceiling (same start-up, same cold JIT).
//   ceiling (warm)  the bare loop inside this already-warm process, loop only:
//                   a stricter reference, printed beside it.
//
// Target: msgctl >= 80% of the cold ceiling (and the warm ratio is printed).
// Usage: npm run build && node bench/batch-send.mjs [--rows 5000] [--concurrency 4] [--rounds 5]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const ROWS = Number(arg('rows', 5000));
const CONCURRENCY = Number(arg('concurrency', 4));
const ROUNDS = Number(arg('rounds', 5));
const TEMPLATE = 'Hi {first_name}, see you tomorrow at {time}. Reply STOP to opt out.';
const self = fileURLToPath(import.meta.url);
const bin = fileURLToPath(new URL('../bin/msgctl.js', import.meta.url));

/** Row i: a unique fictional number (212) 55X-XXXX and the message msgctl renders for it. */
function row(i) {
  const national = `212${555 + Math.floor(i / 10_000)}${String(i % 10_000).padStart(4, '0')}`;
  const time = `${8 + (i % 9)}:${String((i * 5) % 60).padStart(2, '0')}`;
  return {
    csv: `Pat${i},(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)},${time}`,
    body: { to: { phone: `+1${national}` }, body: `Hi Pat${i}, see you tomorrow at ${time}. Reply STOP to opt out.` },
  };
}
const rows = Array.from({ length: ROWS }, (_, i) => row(i));

/** The bare loop: CONCURRENCY workers, each POSTing the next body as soon as its last answer is read. */
async function bareLoop(baseUrl, apiKey) {
  const dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: CONCURRENCY });
  const url = `${baseUrl}/patient-messages`;
  let next = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < rows.length) {
        const { body } = rows[next++];
        const response = await request(url, {
          method: 'POST',
          dispatcher,
          headers: {
            authorization: `Bearer ${apiKey}`,
            'content-type': 'application/json',
            accept: 'application/json, application/problem+json',
            'idempotency-key': randomUUID(),
          },
          body: JSON.stringify(body),
        });
        await response.body.text();
        if (response.statusCode !== 201) failures++;
      }
    }),
  );
  await dispatcher.close();
  return failures;
}

// Child mode: the cold ceiling runs the loop in a process of its own.
if (process.argv[2] === '--bare-child') {
  const failures = await bareLoop(process.argv[3], process.argv[4]);
  process.exit(failures ? 1 : 0);
}

const dir = mkdtempSync(join(tmpdir(), 'msgctl-bench-batch-'));
const csvPath = join(dir, 'tomorrow.csv');
writeFileSync(csvPath, ['First Name,Mobile Phone,Time', ...rows.map((r) => r.csv)].join('\n') + '\n');

async function startSandbox() {
  const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--json', '--rate-limit', '0'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [line] = await once(createInterface({ input: child.stdout }), 'line');
  return { child, info: JSON.parse(line) };
}

/** CPU seconds a process has used so far (Linux /proc), to show where the time goes. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

async function timedProcess(args, env = {}) {
  const devNull = openSync('/dev/null', 'w');
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', devNull, 'inherit'], env: { PATH: process.env.PATH, ...env } });
  const [code] = await once(child, 'exit');
  closeSync(devNull);
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}`);
  return (performance.now() - started) / 1000;
}

const measures = {
  async msgctl(info) {
    const home = mkdtempSync(join(dir, 'home-'));
    const args = [bin, 'send', '--csv', csvPath, '--template', TEMPLATE, '--concurrency', String(CONCURRENCY), '--json', '--quiet'];
    return timedProcess(args, {
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_STATE_HOME: join(home, '.state'),
      MSGCTL_BASE_URL: info.base_url,
      MSGCTL_API_KEY: info.api_key,
    });
  },
  async cold(info) {
    return timedProcess([self, '--bare-child', info.base_url, info.api_key]);
  },
  async warm(info) {
    const started = performance.now();
    if (await bareLoop(info.base_url, info.api_key)) throw new Error('the bare loop got answers other than 201');
    return (performance.now() - started) / 1000;
  },
};

const names = Object.keys(measures);
const rates = Object.fromEntries(names.map((n) => [n, []]));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
try {
  for (let round = 1; round <= ROUNDS; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    const parts = [];
    for (const name of order) {
      const sandbox = await startSandbox();
      const seconds = await measures[name](sandbox.info);
      const sandboxCpu = cpuSeconds(sandbox.child.pid);
      sandbox.child.kill('SIGTERM');
      await once(sandbox.child, 'exit');
      rates[name].push(ROWS / seconds);
      parts.push(`${name} ${(ROWS / seconds).toFixed(0)} msg/s (${seconds.toFixed(2)} s, sandbox CPU ${sandboxCpu.toFixed(2)} s)`);
    }
    console.log(`round ${round}: ${parts.join(', ')}`);
  }
  const [cli, cold, warm] = [median(rates.msgctl), median(rates.cold), median(rates.warm)];
  const ratio = cli / cold;
  console.log(
    `\nsend --csv, ${ROWS} rows, concurrency ${CONCURRENCY}, median of ${ROUNDS}:\n` +
      `  msgctl          ${cli.toFixed(0)} msg/s\n` +
      `  ceiling (cold)  ${cold.toFixed(0)} msg/s  -> msgctl at ${(ratio * 100).toFixed(1)}% (target >= 80%) ${ratio >= 0.8 ? 'PASS' : 'FAIL'}\n` +
      `  ceiling (warm)  ${warm.toFixed(0)} msg/s  -> msgctl at ${((cli / warm) * 100).toFixed(1)}% (reference: in-process, JIT-warm, no start-up)`,
  );
  process.exitCode = ratio >= 0.8 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
