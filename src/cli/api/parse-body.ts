/** How the client reads a response body (client.ts), shared with the page walker (paginate.ts), which reads some raw. */

/** A response body as `request` hands it back when not asked for the raw bytes. */
export function parseBody(bytes: Buffer, contentType: string | string[] | undefined): unknown {
  if (bytes.length === 0) return null;
  // As TextDecoder reads it: a leading byte-order mark is not part of the text.
  const decoded = bytes.toString('utf8');
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  const type = String(contentType ?? '');
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
