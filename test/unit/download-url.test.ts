import { describe, expect, it } from 'vitest';
import { downloadUrl } from '../../src/cli/exports/download.js';

const remote = new URL('https://api.example.com/v1/');
const sandbox = new URL('http://127.0.0.1:4010/v1/');

describe('downloadUrl: where an export link may lead', () => {
  it('takes https links, and plain http to this machine from a service on it (the sandbox)', () => {
    expect(downloadUrl('https://files.example.com/e/1?sig=x', remote).host).toBe('files.example.com');
    expect(downloadUrl('http://127.0.0.1:4010/_exports/1?token=x', sandbox).port).toBe('4010');
    expect(downloadUrl('http://localhost:4010/_exports/1', sandbox).hostname).toBe('localhost');
  });

  it('refuses plain http to another machine: the link is a credential of its own', () => {
    expect(() => downloadUrl('http://files.example.com/e/1', remote)).toThrow(/over http:\/\/ from files\.example\.com/);
  });

  it('refuses a link to this machine from a service that is not on it (it would read a local service into a file)', () => {
    for (const link of ['http://127.0.0.1:6379/', 'https://localhost:8443/admin', 'http://[::1]:2375/containers/json', 'http://127.1.2.3/']) {
      expect(() => downloadUrl(link, remote), link).toThrow(/points at this machine, and the service \(api\.example\.com\) is not on it/);
    }
  });
});
