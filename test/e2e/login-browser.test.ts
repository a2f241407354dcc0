/**
 * `msgctl login` with a real browser: headless Chromium opens the URL the CLI
 * prints, signs in on the sandbox's approve page and clicks Approve (or Deny);
 * the redirect lands on the CLI's loopback listener.
 *
 * Needs /usr/bin/chromium (`apt-get install chromium`). Without it the tests
 * fail under CI and are skipped, saying why, elsewhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { useSandbox } from '../helpers/sandbox.js';
import { isolatedEnv, jsonLines, msgctl } from '../helpers/cli.js';
import { CLIENT_ID, startLogin } from '../helpers/login-harness.js';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env.CI) {
  throw new Error(`${CHROMIUM} is missing: CI must install it (apt-get install -y chromium) for the browser login test.`);
}
if (!haveChromium) console.warn(`login-browser.test.ts skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);

const sandbox = useSandbox();

describe.skipIf(!haveChromium)('msgctl login in headless Chromium', () => {
  let browser: BrowserContext;
  let profileDir: string;

  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    profileDir = mkdtempSync(join(tmpdir(), 'msgctl-chromium-'));
    browser = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  });

  function env() {
    return isolatedEnv({
      MSGCTL_BASE_URL: sandbox.current.baseUrl,
      MSGCTL_CLIENT_ID: CLIENT_ID,
      MSGCTL_CLIENT_SECRET: sandbox.current.credentials.oauth_client_secret,
    });
  }

  async function signIn(url: string, email: string, button: 'Approve' | 'Deny') {
    const page = await browser.newPage();
    await page.goto(url);
    expect(await page.textContent('#app-name')).toBe('msgctl CLI');
    await page.fill('#email', email);
    await page.fill('#password', 'sandbox');
    await page.getByRole('button', { name: button }).click();
    await page.waitForLoadState('load');
    return page;
  }

  it('signs in as Dana, approves, and the CLI logs in; `msgctl me` then works', async () => {
    const e = env();
    const login = startLogin(['--insecure-storage'], e);
    const page = await signIn(await login.url, 'dana@riverside.example', 'Approve');
    await page.waitForURL(/127\.0\.0\.1:\d+\/callback\?/);
    expect(await page.textContent('body')).toMatch(/You can close this tab/);
    await page.close();

    const result = await login.result;
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('Logged in as Dana Admin (org admin) — Riverside Family Clinic\n');

    const me = await msgctl(['me', '--json'], { env: { ...e, MSGCTL_CLIENT_SECRET: undefined } });
    expect(me.exitCode, me.stderr).toBe(0);
    expect(jsonLines(me.stdout)[0]).toMatchObject({ user: { name: 'Dana Admin', role: 'admin' } });
  });

  it('Deny ends the CLI with exit 3 and a clear message', async () => {
    const login = startLogin(['--insecure-storage'], env());
    const page = await signIn(await login.url, '', 'Deny');
    expect(await page.textContent('body')).toMatch(/denied/i);
    await page.close();
    const result = await login.result;
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toMatch(/You denied access/);
  });

  it('a staff user sees a refusal page, and the CLI keeps waiting', async () => {
    const login = startLogin(['--insecure-storage'], env());
    const page = await signIn(await login.url, 'sam@riverside.example', 'Approve');
    expect(await page.textContent('#refused')).toBe('Only an org admin can connect apps');
    await page.close();
    expect(login.child.exitCode).toBeNull();
    login.child.kill('SIGINT');
    expect((await login.result).exitCode).toBe(130);
  });
});
