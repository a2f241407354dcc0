/**
 * Idempotency keys for import uploads. Every chunk of a file gets a key that
 * depends only on what is being imported: the file's bytes (or the caller's
 * --idempotency-key), the chunk's first and last spreadsheet rows, and the
 * exact rows sent. Running the same command on the same file again sends the
 * same keys, so chunks that already reached the service are replayed (within
 * its 24-hour idempotency window) instead of imported a second time.
 *
 * The rows sent are part of the key so that a re-run with another --map,
 * --region or msgctl version, which sends different bodies, starts fresh
 * imports instead of colliding with the old keys (409 idempotency_key_reused).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline, Transform, type Readable } from 'node:stream';
import { v5 as uuidv5 } from 'uuid';
import type { BatchTarget } from '../batch/target.js';
import { CSV_READ_BYTES } from '../csv/read.js';

/** Namespace of msgctl import keys; changing it would make every re-run import again. */
const IMPORT_KEY_NAMESPACE = 'bdf1db71-a2ee-4c98-b8f8-0255005a028d';

/**
 * The file as a stream that hashes what passes through, so the validation
 * pass also yields the file's identity. `sha256()` is complete once the
 * stream has been read to the end.
 */
export function hashedFile(path: string): { stream: Readable; sha256: () => string } {
  const hash = createHash('sha256');
  let digest: string | undefined;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      digest = hash.digest('hex');
      done();
    },
  });
  // Read errors (no such file…) reach the reader through `tap`.
  pipeline(createReadStream(path, { highWaterMark: CSV_READ_BYTES }), tap, () => {});
  return {
    stream: tap,
    sha256: () => {
      if (digest === undefined) throw new Error(`${path} was not read to the end`);
      return digest;
    },
  };
}

/**
 * The namespace every chunk key of one upload derives from: the file (or the
 * caller's --idempotency-key) and where it goes, the API base URL and the
 * organization (src/batch/target.ts), so the same file imported into the
 * sandbox and then into the real service, or into two organizations, never
 * shares keys.
 */
export function uploadNamespace(identity: { sha256: string } | { callerKey: string }, target: BatchTarget): string {
  const what = 'callerKey' in identity ? ['caller', identity.callerKey] : ['file', identity.sha256];
  return uuidv5(JSON.stringify(['imports/2', ...what, target.baseUrl, target.organizationId]), IMPORT_KEY_NAMESPACE);
}

/**
 * The Idempotency-Key of one chunk. `rows` are the rows exactly as sent;
 * they are hashed one by one, so no second copy of a large body is built.
 */
export function chunkKey(namespace: string, firstRow: number, lastRow: number, rows: readonly unknown[]): string {
  const hash = rowsHash();
  for (const row of rows) hash.add(JSON.stringify(row));
  return chunkKeyOf(namespace, firstRow, lastRow, hash.digest());
}

/** The same key from the rows' digest, for a body that hashed its rows while writing them (body.ts). */
export function chunkKeyOf(namespace: string, firstRow: number, lastRow: number, rowsDigest: string): string {
  return uuidv5(`rows:${firstRow}-${lastRow}:${rowsDigest}`, namespace);
}

/** The digest of a chunk's rows: each row's JSON text, one per line. Changing it would make every re-run import again. */
export function rowsHash(): { add(rowJson: string): void; digest(): string } {
  const hash = createHash('sha256');
  return {
    add: (rowJson) => void hash.update(rowJson).update('\n'),
    digest: () => hash.digest('hex'),
  };
}
