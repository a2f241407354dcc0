/**
 * A random (version 4) UUID for an Idempotency-Key. Not crypto.randomUUID():
 * the first use of node:crypto (or the `crypto` global) loads some thirty of
 * Node's internal modules, 8–15 ms of a ~60 ms `msgctl send`. On Linux and
 * macOS the same kernel generator is read directly from /dev/urandom; anywhere
 * it cannot be read (Windows, a chroot without /dev), node:crypto does it.
 */
import { uuidFromHex } from './ids.js';

export function randomUuid(): string {
  const bytes = kernelRandomBytes(16);
  if (!bytes) return process.getBuiltinModule('node:crypto').randomUUID();
  return uuidFromHex(bytes.toString('hex'), 4);
}

/** `size` bytes from /dev/urandom, or null where there is no such device or it gives short. */
function kernelRandomBytes(size: number): Buffer | null {
  if (process.platform === 'win32') return null;
  const { closeSync, openSync, readSync, fstatSync } = process.getBuiltinModule('node:fs');
  let fd: number | undefined;
  try {
    fd = openSync('/dev/urandom', 'r');
    // A regular file planted at /dev/urandom (a broken chroot) is not a random source.
    if (!fstatSync(fd).isCharacterDevice()) return null;
    const bytes = Buffer.alloc(size);
    return readSync(fd, bytes, 0, size, null) === size ? bytes : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
