/**
 * Where a request path goes: always under the configured base URL.
 *
 * The client sends the credential with every request, so a path must never
 * pick another host or climb out of the API's path prefix. `new URL(path,
 * base)` does both for hostile input: `\\host/x` and `/\host` are read as
 * "another host" (WHATWG treats `\` like `/` in http URLs), and `../..`
 * (also as `%2e%2e`) leaves `/v1`. So a path is taken as path segments and
 * appended to the base URL's path; a segment that is, once percent-decoded,
 * `.` or `..` or holds a slash or backslash is refused before anything is
 * sent (exit 2). The result is checked once more: same origin, same prefix.
 */
import { UsageError } from '../errors.js';

export function resolveApiUrl(base: URL, path: string): URL {
  const cut = path.search(/[?#]/);
  const pathPart = (cut === -1 ? path : path.slice(0, cut)).replace(/^\/+/, '');
  const rest = cut === -1 ? '' : path.slice(cut);
  const refuse = (why: string) =>
    new UsageError(`Refusing the path "${path}": ${why}. Paths are relative to the base URL (${base.origin}${base.pathname}) and stay under it.`);
  if (pathPart.includes('\\')) throw refuse('it holds a backslash, which URLs read as a slash');
  const segments = pathPart === '' ? [] : pathPart.split('/');
  for (const segment of segments) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw refuse('it holds a malformed percent-escape');
    }
    if (decoded === '.' || decoded === '..') throw refuse('"." and ".." segments would leave the API\'s path');
    if (decoded.includes('/') || decoded.includes('\\')) throw refuse('a segment holds an encoded slash or backslash');
  }
  const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  const url = new URL(`${base.origin}${prefix}${segments.join('/')}${rest.startsWith('#') ? '' : rest.split('#')[0]}`);
  if (url.origin !== base.origin || !url.pathname.startsWith(prefix)) throw refuse('it resolves outside the base URL');
  return url;
}
