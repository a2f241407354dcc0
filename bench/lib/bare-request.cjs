// The floor for one request: a one-file script doing one GET or POST with node:http (or
// node:https for an https URL) and copying the answer to stdout, as the shortest script a
// user could write. A POST carries a random Idempotency-Key taken from /dev/urandom, as
// msgctl's own `send` does (node:crypto would cost this script more start-up than msgctl).
// Environment: BENCH_URL, BENCH_KEY (the bearer), BENCH_BODY (a JSON body: POST). POSIX only.
'use strict';
const url = new URL(/** @type {string} */ (process.env.BENCH_URL));
const body = process.env.BENCH_BODY;
/** @type {Record<string, string | number>} */
const headers = { authorization: `Bearer ${process.env.BENCH_KEY}`, accept: 'application/json' };
if (body !== undefined) {
  const fs = require('node:fs');
  const bytes = Buffer.alloc(16);
  const fd = fs.openSync('/dev/urandom', 'r');
  fs.readSync(fd, bytes, 0, 16, null);
  fs.closeSync(fd);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  headers['idempotency-key'] = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  headers['content-type'] = 'application/json';
  headers['content-length'] = Buffer.byteLength(body);
}
/** @type {typeof import('node:http')} */
const client = require(url.protocol === 'https:' ? 'node:https' : 'node:http');
const request = client.request(url, { method: body === undefined ? 'GET' : 'POST', headers }, (response) => {
  if ((response.statusCode ?? 500) >= 300) process.exitCode = 1;
  response.pipe(process.stdout);
});
request.on('error', (err) => {
  process.stderr.write(`${err.message}\n`);
  process.exitCode = 1;
});
request.end(body);
