// The ceiling for the sandbox's GET /patients?page[limit]=50 (bench/sandbox-db.mjs): a bare fastify
// route that runs the sandbox's own statement for a page on the same data file (node:sqlite, read
// only, beside the running sandbox: WAL lets both read) and serializes the same rows, the stored
// JSON texts, as one document. No authentication, no cursor, no views: what any server of this
// page must do at least. Its rows come as arrays, as the sandbox's do (store.ts rowsAsArrays): a
// row object per row would cost it more work than the sandbox does.
// Run as `node patients-ceiling.cjs DATA_FILE ORG_ID`; prints its address.
'use strict';
const { DatabaseSync } = require('node:sqlite');
const fastify = require('fastify')();

const [file, orgId] = process.argv.slice(2);
const db = new DatabaseSync(/** @type {string} */ (file), { readOnly: true });
// The statement of src/sandbox/domain/patient-texts.ts for a first page of 50 (one row more tells whether another follows).
const page = db.prepare('SELECT t.id AS id, t.rowid, t.data, t.conversation_count FROM patients AS t WHERE org_id = ? AND deleted_at IS NULL ORDER BY created_at, id LIMIT 51');
// Rows as arrays where Node can (22.16+, 24): a row object per row costs more than the rest of the route.
const arrays = typeof page.setReturnArrays === 'function';
if (arrays) page.setReturnArrays(true);
fastify.get('/v1/patients', (_request, reply) => {
  const rows = /** @type {unknown[]} */ (page.all(/** @type {string} */ (orgId)));
  const more = rows.length > 50;
  const data = rows.slice(0, 50).map((row) => (arrays ? /** @type {string[]} */ (row)[2] : /** @type {{ data: string }} */ (row).data));
  reply.type('application/json').send(`{"data":[${data.join(',')}],"pagination":{"next_cursor":${more ? '"more"' : 'null'}}}`);
});
fastify.listen({ host: '127.0.0.1', port: 0 }).then((address) => console.log(address));
