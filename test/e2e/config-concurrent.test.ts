/**
 * `msgctl config set` from parallel processes (cron jobs on one machine, two
 * terminals): every change survives, since each write re-reads the file under
 * the config lock (src/cli/config/config.ts, file-lock.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, msgctl } from '../helpers/cli.js';

describe('concurrent config writes', () => {
  it('eight parallel `config set` on two profiles lose nothing', async () => {
    const env = isolatedEnv();
    const changes: [string, string, string][] = [
      ['a', 'region', 'GB'], ['a', 'date_order', 'day-first'], ['a', 'color', 'never'], ['a', 'time_zone', 'Europe/London'],
      ['b', 'region', 'CA'], ['b', 'pager', 'less -R'], ['b', 'base_url', 'https://api.example.com/v1'], ['b', 'default_from', '+15555550110'],
    ];
    const results = await Promise.all(changes.map(([profile, key, value]) => msgctl(['--profile', profile, 'config', 'set', key, value], { env })));
    for (const r of results) expect(r.exitCode, r.stderr).toBe(0);
    const config = JSON.parse(readFileSync(join(env.XDG_CONFIG_HOME!, 'msgctl', 'config.json'), 'utf8'));
    for (const [profile, key, value] of changes) expect(config.profiles[profile][key], `${profile}.${key}`).toBe(value);
  });
});
