// `msgctl send --csv` throughput against its ceiling. For each round, two
// fresh sandboxes (no rate limit, no chaos) receive the same 5,000 messages:
//   ceiling: a bare undici loop in this process, the same POST bodies with
//            fresh Idempotency-Keys, at the same concurrency;
//   msgctl:  the built CLI end to end (start-up, validation pass, journal
//            fsyncs, per-row JSON output), timed from spawn to exit.
// Prints messages/s for both and the ratio (target: msgctl >= 80% of the ceiling).
// Usage: npm run build && node bench/batch-send.mjs [--rows 5000] [--concurrency 4] [--rounds 5]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const ROWS = arg('rows', 5000);
const CONCURRENCY = arg('concurrency', 4);
const ROUNDS = arg('rounds', 5);
const TEMPLATE = 'Hi {first_name}, see you tomorrow at {time}. Reply STOP to opt out.';
const bin = fileURLToPath(new URL('../bin/msgctl.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'msgctl-bench-batch-'));

/** Row i: a unique fictional number (212) 55X-XXXX and its rendered message. */
function row(i) {
  const national = `212${555 + Math.floor(i / 10_000)}${String(i % 10_000).padStart(4, '0')}`;
  const time = `${8 + (i % 9)}:${String((i * 5) % 60).padStart(2, '0')}`;
  return {
    csv: `Pat${i},(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)},${time}`,
    body: { to: { phone: `+1${national}` }, body: `Hi Pat${i}, see you tomorrow at ${time}. Reply STOP to opt out.` },
  };
}

const rows = Array.from({ length: ROWS }, (_, i) => row(i));
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

async function stopSandbox(sandbox) {
  sandbox.cpu = cpuSeconds(sandbox.child.pid);
  sandbox.child.kill('SIGTERM');
  await once(sandbox.child, 'exit');
}

async function ceiling(info) {
  const dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: CONCURRENCY });
  const url = `${info.base_url}/patient-messages`;
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < rows.length) {
        const { body } = rows[next++];
        const response = await request(url, {
          method: 'POST',
          dispatcher,
          headers: {
            authorization: `Bearer ${info.api_key}`,
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
  const seconds = (performance.now() - started) / 1000;
  await dispatcher.close();
  return { seconds, failures };
}

async function cli(info) {
  const home = mkdtempSync(join(dir, 'home-'));
  const devNull = openSync('/dev/null', 'w');
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [bin, 'send', '--csv', csvPath, '--template', TEMPLATE, '--concurrency', String(CONCURRENCY), '--json', '--quiet'],
    {
      stdio: ['ignore', devNull, 'inherit'],
      env: {
        PATH: process.env.PATH,
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        XDG_STATE_HOME: join(home, '.state'),
        MSGCTL_BASE_URL: info.base_url,
        MSGCTL_API_KEY: info.api_key,
      },
    },
  );
  const [code] = await once(child, 'exit');
  const seconds = (performance.now() - started) / 1000;
  closeSync(devNull);
  return { seconds, code };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = { ceiling: [], msgctl: [] };
try {
  for (let round = 1; round <= ROUNDS; round++) {
    // Alternate which goes first, so a machine getting busier or quieter favours neither.
    const measure = { ceiling, cli };
    const order = round % 2 ? ['ceiling', 'cli'] : ['cli', 'ceiling'];
    const got = {};
    for (const which of order) {
      const sandbox = await startSandbox();
      got[which] = await measure[which](sandbox.info);
      await stopSandbox(sandbox);
      got[which].sandboxCpu = sandbox.cpu;
    }
    const c = got.ceiling;
    const m = got.cli;
    if (c.failures) throw new Error(`ceiling loop: ${c.failures} requests did not answer 201`);
    if (m.code !== 0) throw new Error(`msgctl send --csv exited ${m.code}`);
    results.ceiling.push(ROWS / c.seconds);
    results.msgctl.push(ROWS / m.seconds);
    console.log(
      `round ${round}: ceiling ${(ROWS / c.seconds).toFixed(0)} msg/s (${c.seconds.toFixed(2)} s), ` +
        `msgctl ${(ROWS / m.seconds).toFixed(0)} msg/s (${m.seconds.toFixed(2)} s); ` +
        `sandbox CPU ${c.sandboxCpu.toFixed(2)} s vs ${m.sandboxCpu.toFixed(2)} s`,
    );
  }
  const ceilingRate = median(results.ceiling);
  const cliRate = median(results.msgctl);
  const ratio = cliRate / ceilingRate;
  console.log(
    `\nsend --csv, ${ROWS} rows, concurrency ${CONCURRENCY}, median of ${ROUNDS}: ` +
      `msgctl ${cliRate.toFixed(0)} msg/s vs ceiling ${ceilingRate.toFixed(0)} msg/s = ${(ratio * 100).toFixed(1)}% ` +
      `(target >= 80%) ${ratio >= 0.8 ? 'PASS' : 'FAIL'}`,
  );
  process.exitCode = ratio >= 0.8 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
