/**
 * A random (version 4) UUID for an Idempotency-Key. Not crypto.randomUUID():
 * the first use of node:crypto (or the `crypto` global) loads some thirty of
 * Node's internal modules, 8–15 ms of a ~60 ms `msgctl send`. On Linux and
 * macOS the same kernel generator is read directly from /dev/urandom; anywhere
 * it cannot be read (Windows, a chroot without /dev), node:crypto does it.
 */
export function randomUuid(): string {
  const bytes = kernelRandomBytes(16);
  if (!bytes) return process.getBuiltinModule('node:crypto').randomUUID();
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 9562 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
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
