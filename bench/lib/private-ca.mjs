// A throwaway private CA and a server certificate for 127.0.0.1 signed by it, made with openssl
// at bench time (node:crypto makes keys but not certificates). POSIX only, needs `openssl`.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** @param {string[]} args @param {string} cwd */
function openssl(args, cwd) {
  const r = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr || r.error}`);
}

/**
 * The CA (`ca`: a PEM file for NODE_EXTRA_CA_CERTS) and a TLS terminator in front of
 * 127.0.0.1:`upstreamPort`, in a child process of its own (`origin`: https://127.0.0.1:PORT).
 * @param {number} upstreamPort
 * @param {NodeJS.ProcessEnv} env
 */
export async function startTlsTerminator(upstreamPort, env) {
  const dir = mkdtempSync(join(tmpdir(), 'msgctl-bench-tls-'));
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=msgctl bench CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1'], dir);
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  openssl(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'server.ext'], dir);
  const script = fileURLToPath(new URL('./tls-terminator.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, join(dir, 'server.key'), join(dir, 'server.pem'), String(upstreamPort)], { stdio: ['ignore', 'pipe', 'inherit'], env });
  const [line] = await once(createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stdout) }), 'line');
  return {
    origin: `https://127.0.0.1:${Number(line)}`,
    ca: join(dir, 'ca.pem'),
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
