/**
 * Loopback as msgctl judges it everywhere: the plain-http rule before a credential is sent, the
 * proxy bypass, export downloads, the sandbox's control endpoints and the hints that name the
 * sandbox. A module of its own, with nothing else in it, so that error rendering and the command
 * context can ask without loading the transport.
 */

/** localhost, 127.0.0.0/8 or ::1 (a URL's hostname, with or without IPv6 brackets). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
