/** Origin and path only: a user:password or query in a URL (a base URL, a proxy) stays off the screen and out of error output. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin + parsed.pathname;
  } catch {
    return url;
  }
}
