// A local TLS terminator in front of the sandbox, as a real service sits behind one: run as
// `node tls-terminator.mjs KEY_FILE CERT_FILE UPSTREAM_PORT`; prints its port on the first line,
// then passes every TLS connection's bytes to 127.0.0.1:UPSTREAM_PORT and back.
// The certificate comes from a private CA made at bench time (bench/lib/private-ca.mjs).
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { createServer } from 'node:tls';

const [keyFile, certFile, upstream] = process.argv.slice(2);
if (!keyFile || !certFile || !upstream) throw new Error('usage: tls-terminator.mjs KEY_FILE CERT_FILE UPSTREAM_PORT');
const server = createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (tls) => {
  const plain = connect(Number(upstream), '127.0.0.1');
  tls.pipe(plain).pipe(tls);
  tls.on('error', () => plain.destroy());
  plain.on('error', () => tls.destroy());
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
