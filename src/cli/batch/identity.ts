/**
 * Who a batch is and what each row's Idempotency-Key is (docs/scripting.md,
 * "What makes a batch").
 *
 * The batch id is a UUIDv5 of where the batch goes (the API base URL and the
 * organization id, target.ts), the CSV's bytes and the flags that shape the
 * messages (template, --channel, --from, --region, --to-column), as typed. The
 * same command on the same file to the same service and organization is the
 * same batch, so a re-run finds its journal and sends the same keys;
 * tomorrow's file is a new batch even when some rows repeat today's, and so
 * is today's file sent to the sandbox first and to the real service next.
 *
 * A row's key is a UUIDv5, in the batch's namespace, of its spreadsheet row
 * number and a SHA-256 of the exact request body. The row number keeps two
 * identical rows two messages; the body hash makes anything that changes the
 * request (a profile's default number, a newer msgctl normalising a phone
 * differently) a new key instead of a 409 idempotency_key_reused.
 */
import { createHash, hash as oneShotHash, type Hash } from 'node:crypto';
import { Transform } from 'node:stream';
import { parse as parseUuid, v5 as uuidv5 } from 'uuid';
import type { BatchTarget } from './target.js';
import { uuidFromHex } from '../util/ids.js';

/** Changing this would give every batch a new identity, so re-runs of old batches would send again. */
const BATCH_NAMESPACE = '0b9e6f3c-58d1-4a7e-9c2b-7d4e1f0a6c35';

export interface BatchParams {
  template: string;
  channel?: string;
  from?: string;
  region?: string;
  toColumn?: string;
}

export function batchId(csvSha256: string, params: BatchParams, target: BatchTarget): string {
  const name = JSON.stringify(['send-csv/2', target.baseUrl, target.organizationId, csvSha256, ...paramParts(params)]);
  return uuidv5(name, BATCH_NAMESPACE);
}

/** The flags that change what a batch sends, in the order both identities hash them. */
function paramParts(params: BatchParams): (string | null)[] {
  return [params.template, params.channel ?? null, params.from ?? null, params.region ?? null, params.toColumn ?? null];
}

/**
 * The id msgctl gave the same batch before the target was part of it. Only
 * to find a journal such a version left: it cannot say where it sent.
 */
export function batchIdWithoutTarget(csvSha256: string, params: BatchParams): string {
  const name = JSON.stringify(['send-csv/1', csvSha256, ...paramParts(params)]);
  return uuidv5(name, BATCH_NAMESPACE);
}

export function rowKey(batch: string, row: number, request: unknown): string {
  const requestHash = oneShotHash('sha256', canonicalJson(request), 'hex');
  return asciiUuidV5(`${row}:${requestHash}`, namespaceBytes(batch));
}

/**
 * UUIDv5 (RFC 9562 §5.5) of an ASCII name: the same bytes as uuid's v5(), which
 * was ~5% of a batch's CPU (it converts the name through encodeURIComponent and
 * hashes with a fresh Hash object each row). Row key names are ASCII by
 * construction (digits, ':' and hex); batch ids keep uuid's v5 for any text.
 */
function asciiUuidV5(name: string, namespace: Buffer): string {
  const input = Buffer.allocUnsafe(16 + name.length);
  namespace.copy(input, 0);
  input.write(name, 16, 'latin1');
  return uuidFromHex(oneShotHash('sha1', input, 'hex'), 5);
}

/** The batch id's 16 bytes, parsed once per batch rather than once per row. */
let parsedNamespace: { id: string; bytes: Buffer } | undefined;
function namespaceBytes(batch: string): Buffer {
  if (parsedNamespace?.id !== batch) parsedNamespace = { id: batch, bytes: Buffer.from(parseUuid(batch)) };
  return parsedNamespace.bytes;
}

/** JSON with object keys sorted, so the hash does not depend on how the body was assembled. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  // Plain loops: this runs for every row of a batch.
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '';
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    out += `${out === '' ? '' : ','}${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `{${out}}`;
}

/**
 * A pass-through stream that hashes the bytes the CSV reader consumes, so the
 * validation pass also yields the file's identity, from exactly the bytes it
 * validated. `digest()` is valid once the stream has ended.
 */
export function hashingTap(): { tap: Transform; digest: () => string } {
  const hash: Hash = createHash('sha256');
  let hex: string | null = null;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      hex = hash.digest('hex');
      callback();
    },
  });
  return {
    tap,
    digest() {
      if (hex === null) throw new Error('the CSV was not read to the end');
      return hex;
    },
  };
}
