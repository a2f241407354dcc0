// A stand-in for the service that finishes every import at once (all rows
// `created`), for `import.mjs --instant`: the CLI then never waits, which is
// its hardest case for memory (nothing idle, every chunk back to back), and a
// 100,000-row run takes seconds instead of the sandbox's many minutes.
import { createServer } from 'node:http';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';

export async function startInstantImports() {
  /** @type {Map<string, number[]>} id -> the row numbers it was sent */
  const imports = new Map();
  const server = createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      /** @param {number} status @param {unknown} body */
      const send = (status, body) => {
        const text = JSON.stringify(body);
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      };
      /** @param {string} id @param {number[]} rows @param {unknown[] | null} results */
      const view = (id, rows, results) => ({
        id, status: results ? 'completed' : 'running', rows: rows.length, created: results ? rows.length : 0,
        matched: 0, failed: 0, results, created_at: new Date().toISOString(),
      });
      if (req.url === '/v1/organization') return send(200, { id: randomUUID(), name: 'Bench' });
      if (req.method === 'POST' && req.url === '/v1/patient-imports') {
        const id = `imp_${imports.size + 1}`;
        const rows = JSON.parse(Buffer.concat(chunks).toString('utf8')).rows.map((/** @type {{ row: number }} */ r) => r.row);
        imports.set(id, rows);
        return send(202, view(id, rows, null));
      }
      const id = /^\/v1\/patient-imports\/([^/]+)$/.exec(req.url ?? '')?.[1];
      const rows = id === undefined ? undefined : imports.get(id);
      if (id === undefined || !rows) return send(404, { type: 'about:blank', title: 'Not found', status: 404 });
      send(200, view(id, rows, rows.map((row) => ({ row, outcome: 'created', patient_id: randomUUID(), matched_by: null, errors: [] }))));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    info: { base_url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}/v1`, api_key: 'instant-bench-key' },
    /** @returns {Promise<void>} */
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
