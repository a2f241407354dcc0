/**
 * The keychain helper (a second Node process, for writes and where the keychain is not read
 * in-process) gets the environment it needs to reach the keychain, never msgctl's own
 * credentials (docs/security.md, §2). Checked on what a real spawn receives: process.execPath
 * is pointed for the test at a script that records its environment.
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchNodeHelper } from '../../src/cli/auth/keychain-store.js';

describe.skipIf(process.platform === 'win32')('the keychain helper\'s environment', () => {
  it('has no MSGCTL_API_KEY, MSGCTL_TOKEN, MSGCTL_CLIENT_SECRET or MSGCTL_WEBHOOK_SECRET, and keeps the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msgctl-helper-env-'));
    const seen = join(dir, 'env.txt');
    const fakeNode = join(dir, 'node');
    writeFileSync(fakeNode, `#!/bin/sh\nenv > '${seen}'\n`);
    chmodSync(fakeNode, 0o700);
    const realExecPath = process.execPath;
    process.execPath = fakeNode;
    try {
      const helper = launchNodeHelper({
        op: 'get',
        service: 'msgctl-test-helper-env',
        account: 'default',
        secret: undefined,
        env: {
          PATH: process.env.PATH,
          DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
          MSGCTL_API_KEY: 'msk_test_helper_env',
          MSGCTL_TOKEN: 'mst_test_helper_env',
          MSGCTL_CLIENT_SECRET: 'mcs_test_helper_env',
          MSGCTL_WEBHOOK_SECRET: 'whsec_test_helper_env',
        },
        timeoutMs: 1000,
      });
      await expect(helper.answer).rejects.toThrow(/without an answer/);
    } finally {
      process.execPath = realExecPath;
    }
    const env = readFileSync(seen, 'utf8');
    expect(env).toContain('DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent');
    expect(env).not.toMatch(/MSGCTL_API_KEY|MSGCTL_TOKEN|MSGCTL_CLIENT_SECRET|MSGCTL_WEBHOOK_SECRET|_test_helper_env/);
  });
});
