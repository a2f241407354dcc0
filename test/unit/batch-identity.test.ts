import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import { batchId, batchIdWithoutTarget, canonicalJson, hashingTap, rowKey } from '../../src/cli/batch/identity.js';

const sha = 'a'.repeat(64);
const params = { template: 'Hi {first_name}', channel: 'sms', from: undefined, region: undefined, toColumn: undefined };
const target = { baseUrl: 'https://api.example.com/v1/', organizationId: '7f1c0a52-4a5e-4f43-9d7f-0a1b2c3d4e5f' };
const request = { to: { phone: '+15555550123' }, body: 'Hi Ada', channel: 'sms' as const };

describe('batch identity', () => {
  it('is a stable UUID for the same file and flags (golden value: changing it re-sends old batches)', () => {
    expect(batchId(sha, params, target)).toBe(batchId(sha, { ...params }, target));
    expect(batchId(sha, params, target)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(batchId(sha, params, target)).toBe('c3d379f3-6213-599f-8127-bb8c81a21eca');
  });

  it.each([
    ['the file', { sha: 'b'.repeat(64) }],
    ['the template', { template: 'Hello {first_name}' }],
    ['--channel', { channel: 'secure' }],
    ['--from', { from: '+15555550110' }],
    ['--region', { region: 'CA' }],
    ['--to-column', { toColumn: 'Phone' }],
  ])('changes with %s', (_what, change) => {
    const { sha: otherSha, ...rest } = change as { sha?: string } & Partial<typeof params>;
    expect(batchId(otherSha ?? sha, { ...params, ...rest }, target)).not.toBe(batchId(sha, params, target));
  });

  it.each([
    ['the base URL', { ...target, baseUrl: 'http://127.0.0.1:4010/v1/' }],
    ['the organization', { ...target, organizationId: '00000000-0000-4000-8000-000000000001' }],
  ])('changes with the target: %s', (_what, other) => {
    expect(batchId(sha, params, other)).not.toBe(batchId(sha, params, target));
  });

  it('keeps the id earlier versions gave the same file and flags, to find their journals', () => {
    expect(batchIdWithoutTarget(sha, params)).toBe('8aceff6d-afb2-53e6-acdf-ae19095831cc');
  });

  it('does not confuse a missing flag with an empty one', () => {
    expect(batchId(sha, { ...params, from: '' }, target)).not.toBe(batchId(sha, params, target));
  });
});

describe('row keys', () => {
  const batch = batchId(sha, params, target);

  it('are stable per row and request, whatever the key order of the body', () => {
    const reordered = { channel: 'sms' as const, body: 'Hi Ada', to: { phone: '+15555550123' } };
    expect(rowKey(batch, 2, request)).toBe(rowKey(batch, 2, reordered));
    expect(rowKey(batch, 2, request)).toBe('887f67fb-3f03-5e7b-a43b-4867e4c98260');
  });

  it('differ by row number, by request, and by batch', () => {
    const key = rowKey(batch, 2, request);
    expect(rowKey(batch, 3, request)).not.toBe(key);
    expect(rowKey(batch, 2, { ...request, body: 'Hi Ada!' })).not.toBe(key);
    expect(rowKey(batch, 2, { ...request, from: '+15555550110' })).not.toBe(key);
    expect(rowKey(batchId('c'.repeat(64), params, target), 2, request)).not.toBe(key);
  });

  it('are the UUIDv5 of "row:sha256(canonical body)" in the batch namespace, as the uuid package computes it', () => {
    // The row key has its own v5 code (speed); it must give the very keys earlier runs sent.
    const bodies = ['Hi Ada', 'Grüße, Zoë — 10:30 🙂', '', 'x'.repeat(1600)];
    for (const [i, body] of bodies.entries()) {
      for (const row of [2, 10, 99_999, 1_048_577]) {
        const req = { to: { phone: `+1555555${String(i).padStart(4, '0')}` }, body };
        const expected = uuidv5(`${row}:${createHash('sha256').update(canonicalJson(req)).digest('hex')}`, batch);
        expect(rowKey(batch, row, req)).toBe(expected);
      }
    }
    const otherBatch = batchId('d'.repeat(64), params, target);
    expect(rowKey(otherBatch, 2, request)).toBe(uuidv5(`2:${createHash('sha256').update(canonicalJson(request)).digest('hex')}`, otherBatch));
  });

  it('ignore undefined members, as JSON.stringify does on the wire', () => {
    expect(canonicalJson({ b: 1, a: undefined, c: [1, { z: 2, y: null }] })).toBe('{"b":1,"c":[1,{"y":null,"z":2}]}');
    expect(canonicalJson({ a: undefined })).toBe('{}');
    expect(canonicalJson({ 'k"\u00e9': 'v\n', n: { b: 2, a: 1 } })).toBe('{"k\\"\u00e9":"v\\n","n":{"a":1,"b":2}}');
    expect(rowKey(batch, 2, { ...request, from: undefined })).toBe(rowKey(batch, 2, request));
  });
});

describe('hashingTap', () => {
  it('passes bytes through and hashes exactly them', async () => {
    const { tap, digest } = hashingTap();
    const chunks: Buffer[] = [];
    Readable.from([Buffer.from('a,b\n'), Buffer.from('1,2\n')]).pipe(tap);
    for await (const chunk of tap) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('a,b\n1,2\n');
    expect(digest()).toBe(createHash('sha256').update('a,b\n1,2\n').digest('hex'));
  });

  it('refuses to give a digest before the end', () => {
    expect(() => hashingTap().digest()).toThrow(/not read to the end/);
  });
});
