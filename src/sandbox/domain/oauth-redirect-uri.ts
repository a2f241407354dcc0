/**
 * Matching a redirect_uri against a client's registered ones.
 *
 * Exact string match, except for loopback IP redirects (RFC 8252 §7.3): a
 * native app listens on whatever port is free at the time, so a registered
 * `http://127.0.0.1/callback` matches `http://127.0.0.1:53211/callback`.
 * Everything but the port must still match. `localhost` is matched the same
 * way for clients that registered it, though RFC 8252 §8.3 recommends the
 * literal IP (msgctl always sends 127.0.0.1).
 */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

export function isRegisteredRedirectUri(registered: readonly string[], given: string): boolean {
  if (registered.includes(given)) return true;
  const candidate = parseLoopback(given);
  if (!candidate) return false;
  return registered.some((r) => {
    const allowed = parseLoopback(r);
    return (
      allowed !== null &&
      allowed.hostname === candidate.hostname &&
      allowed.pathname === candidate.pathname &&
      allowed.search === candidate.search
    );
  });
}

function parseLoopback(uri: string): URL | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  // A fragment is never allowed in a redirect URI (RFC 6749 §3.1.2); user info would be a trick.
  if (url.protocol !== 'http:' || url.hash || url.username || url.password || uri.includes('#')) return null;
  return LOOPBACK_HOSTS.has(url.hostname) ? url : null;
}
