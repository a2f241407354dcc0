/**
 * `msgctl config get|set|unset|list` and `msgctl profiles list|use` (issue 29
 * item 7): settings per profile, each value checked before it is stored.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jsonLines, msgctl } from '../helpers/in-process.js';
import { SETTING_KEYS } from '../../src/cli/config/settings.js';
import { CONFIG_KEYS } from '../../src/cli/commands/config/keys.js';

function home(profiles?: Record<string, unknown>, extra: Record<string, string | undefined> = {}) {
  const env = isolatedEnv(extra);
  if (profiles) {
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'msgctl'), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME!, 'msgctl', 'config.json'), JSON.stringify(profiles));
  }
  return env;
}
const stored = (env: Record<string, string | undefined>) => JSON.parse(readFileSync(join(env.XDG_CONFIG_HOME!, 'msgctl', 'config.json'), 'utf8'));

describe('msgctl config', () => {
  it('the command and the settings module name the same seven keys', () => {
    expect([...CONFIG_KEYS]).toEqual([...SETTING_KEYS]);
    expect([...SETTING_KEYS]).toEqual(['base_url', 'region', 'default_from', 'date_order', 'color', 'pager', 'time_zone']);
  });

  it('set stores a checked, normalised value in the profile; get prints it bare; unset removes it', async () => {
    const env = home();
    const set = await msgctl(['config', 'set', 'region', 'gb'], { env });
    expect(set.exitCode, set.stderr).toBe(0);
    expect(set.stderr).toContain('Set region = GB for profile "default".');
    expect(stored(env).profiles.default).toEqual({ region: 'GB' });
    expect((await msgctl(['config', 'get', 'region'], { env })).stdout).toBe('GB\n');
    // default_from is read in the profile's region, and stored as E.164.
    await msgctl(['config', 'set', 'default_from', '020 7946 0958'], { env });
    expect(stored(env).profiles.default.default_from).toBe('+442079460958');
    const unset = await msgctl(['config', 'unset', 'region'], { env });
    expect(unset.exitCode).toBe(0);
    expect(stored(env).profiles.default).toEqual({ default_from: '+442079460958' });
    const empty = await msgctl(['config', 'get', 'region'], { env });
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toContain('region is not set for profile "default" (default: US).');
  });

  it.each([
    ['date_order', 'dayfirst', 'must be one of day-first, month-first'],
    ['color', 'sometimes', 'must be one of auto, always, never'],
    ['time_zone', 'Mars/Olympus', 'is not local, organization or a time zone name'],
    ['region', 'XX', 'is not a region code msgctl knows'],
    ['default_from', '12', 'too short'],
    ['base_url', 'http://api.example.com/v1', 'Refusing to send a credential over plain http://'],
    ['base_url', 'not a url', 'Invalid base URL'],
  ])('refuses %s=%j with exit 2 and stores nothing', async (key, value, message) => {
    const env = home({ profiles: { default: { region: 'US' } } });
    const r = await msgctl(['config', 'set', key, value], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
    expect(stored(env).profiles.default).toEqual({ region: 'US' });
  });

  it.each([
    ['date_order', 'month-first'],
    ['color', 'never'],
    ['pager', ''],
    ['pager', 'less -R'],
    ['time_zone', 'Europe/London'],
    ['time_zone', 'organization'],
    ['base_url', 'https://api.example.com/v1'],
  ])('accepts %s=%j', async (key, value) => {
    const env = home();
    const r = await msgctl(['config', 'set', key, value, '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(jsonLines(r.stdout)[0]).toMatchObject({ profile: 'default', key, value });
    expect(stored(env).profiles.default[key]).toBe(value);
  });

  it('an unknown key is exit 2 listing the keys', async () => {
    const r = await msgctl(['config', 'set', 'colour', 'never'], { env: home() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Allowed: base_url, region, default_from, date_order, color, pager, time_zone');
  });

  it('list shows every key, set or not, with its default; per profile', async () => {
    const env = home({ profiles: { clinic: { region: 'CA', credential: { kind: 'api_key', storage: 'keychain' } }, other: {} } });
    const r = await msgctl(['--profile', 'clinic', 'config', 'list', '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => l.key)).toEqual([...SETTING_KEYS]);
    expect(lines.find((l) => l.key === 'region')).toEqual({ profile: 'clinic', key: 'region', value: 'CA', default: 'US' });
    expect(lines.find((l) => l.key === 'pager')).toMatchObject({ value: null, default: 'less -FRX' });
    const plain = await msgctl(['--profile', 'clinic', 'config', 'list'], { env });
    expect(plain.stdout.split('\n')[1]).toBe('region\tCA\tUS');
    // --json FIELDS and --jq, as on every list.
    const jq = await msgctl(['--profile', 'clinic', 'config', 'list', '--jq', 'select(.value != null) | .key'], { env });
    expect(jq.stdout).toBe('region\n');
    const fields = await msgctl(['--profile', 'clinic', 'config', 'list', '--json', 'key,value'], { env });
    expect(jsonLines(fields.stdout)[0]).toEqual({ key: 'base_url', value: null });
    const typo = await msgctl(['--profile', 'clnic', 'config', 'list'], { env });
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain('no such profile "clnic"');
  });

  it('a setting takes effect: date_order decides how patients create reads 03/02/1969', async () => {
    const env = home({ profiles: { default: { base_url: 'https://api.example.com/v1' } } });
    await msgctl(['config', 'set', 'date_order', 'day-first'], { env });
    const r = await msgctl(['send', '--to', '+15555550123', '--dob', '03/02/1969', '--dry-run', 'Hi'], { env });
    expect(jsonLines(r.stdout)[0].body.patient.date_of_birth).toBe('1969-02-03');
    // A date that order cannot read says where the order came from: a setting made long ago is easy to forget.
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-dates-'));
    writeFileSync(join(dir, 'roster.csv'), 'First Name,Last Name,DOB,Phone\nAda,Lovelace,12/19/1985,+15555550123\n');
    const expected = 'month 19 does not exist (numeric dates are read day first: DD/MM/YYYY, as profile "default"\'s date_order says)';
    for (const args of [
      ['send', '--to', '+15555550123', '--dob', '12/19/1985', '--dry-run', 'Hi'],
      ['patients', 'create', '--first-name', 'Ada', '--last-name', 'Lovelace', '--dob', '12/19/1985'],
      ['imports', 'create', join(dir, 'roster.csv'), '--dry-run'],
    ]) {
      const refused = await msgctl(args, { env });
      expect(refused.exitCode, args[0]).toBe(2);
      expect(refused.stderr, args.join(' ')).toContain(expected);
    }
    // From a region on the command line, the region; from a flag, nothing more (it is right there).
    const gb = await msgctl(['--profile', 'default', 'config', 'unset', 'date_order'], { env });
    expect(gb.exitCode, gb.stderr).toBe(0);
    expect((await msgctl(['send', '--to', '+447700900123', '--region', 'GB', '--dob', '12/19/1985', '--dry-run', 'Hi'], { env })).stderr).toContain('DD/MM/YYYY, as region GB says)');
    expect((await msgctl(['send', '--to', '+15555550123', '--day-first', '--dob', '12/19/1985', '--dry-run', 'Hi'], { env })).stderr).toContain('(numeric dates are read day first: DD/MM/YYYY)');
  });
});

describe('a profile without a credential', () => {
  // The same loopback rule as the client's own before it sends a key over plain http (transport.ts).
  it.each([
    ['http://127.0.0.1:4010/v1', true],
    ['http://127.0.0.2:4010/v1', true],
    ['http://localhost:4010/v1', true],
    ['http://[::1]:4010/v1', true],
    ['https://api.example.com/v1', false],
    ['https://localhost:8443/v1', false],
    ['http://127.0.0.1.example.com/v1', false],
  ])('on %s, says how to get a local sandbox key back: %s', async (baseUrl, local) => {
    const env = home({ profiles: { clinic: { base_url: baseUrl } } }, { MSGCTL_API_KEY: undefined, MSGCTL_TOKEN: undefined, MSGCTL_BASE_URL: undefined });
    const r = await msgctl(['--profile', 'clinic', 'org'], { env });
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain('No credential for profile "clinic"');
    expect(r.stderr.includes('msgctl sandbox --write-profile')).toBe(local);
  });
});

describe('msgctl profiles', () => {
  const profiles = {
    default_profile: 'clinic',
    profiles: {
      clinic: { base_url: 'https://api.example.com/v1', credential: { kind: 'api_key', storage: 'keychain' } },
      sandbox: { base_url: 'http://127.0.0.1:4010/v1', credential: { kind: 'api_key', storage: 'file' } },
      bare: {},
    },
  };

  it('list marks the profile in use and shows what each holds', async () => {
    const env = home(profiles);
    const r = await msgctl(['profiles', 'list', '--json'], { env });
    expect(jsonLines(r.stdout)).toEqual([
      { name: 'clinic', active: true, default: true, base_url: 'https://api.example.com/v1', credential: { kind: 'api_key', storage: 'keychain' } },
      { name: 'sandbox', active: false, default: false, base_url: 'http://127.0.0.1:4010/v1', credential: { kind: 'api_key', storage: 'file' } },
      { name: 'bare', active: false, default: false, base_url: null, credential: null },
    ]);
    const piped = await msgctl(['profiles', 'list'], { env: { ...env, MSGCTL_PROFILE: 'sandbox' } });
    expect(piped.stdout.split('\n')[1]).toBe('*\tsandbox\thttp://127.0.0.1:4010/v1\tAPI key (file)\t');
    // --json FIELDS, --jq and --template, as on every list.
    expect((await msgctl(['profiles', 'list', '--jq', 'select(.credential != null) | .name'], { env })).stdout).toBe('clinic\nsandbox\n');
    expect(jsonLines((await msgctl(['profiles', 'list', '--json', 'name,default'], { env })).stdout)[0]).toEqual({ name: 'clinic', default: true });
    expect((await msgctl(['profiles', 'list', '--template', '{{name}} {{base_url}}'], { env })).stdout.split('\n')[0]).toBe('clinic https://api.example.com/v1');
  });

  it('use makes a profile the default, refuses one that does not exist, and warns when MSGCTL_PROFILE wins', async () => {
    const env = home(profiles);
    const r = await msgctl(['profiles', 'use', 'sandbox'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(stored(env).default_profile).toBe('sandbox');
    expect(stored(env).profiles.clinic).toEqual(profiles.profiles.clinic);
    const missing = await msgctl(['profiles', 'use', 'prod'], { env });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/no such profile "prod".*\n.*"clinic", "sandbox", "bare"/);
    const shadowed = await msgctl(['profiles', 'use', 'clinic'], { env: { ...env, MSGCTL_PROFILE: 'sandbox' } });
    expect(shadowed.exitCode).toBe(0);
    expect(shadowed.stderr).toContain('MSGCTL_PROFILE=sandbox is set here and wins over the default');
  });

  it('with no config file, says how profiles are made', async () => {
    const r = await msgctl(['profiles', 'list'], { env: home() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('No profiles yet');
  });
});
