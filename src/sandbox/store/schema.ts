/**
 * The SQL shape of each named table. Every table is `id` (primary key) plus
 * `data`, the whole record as JSON; rowid keeps insertion order. Fields that
 * are looked up, filtered or sorted on are also generated columns (computed
 * from `data`, so they can never disagree with it) with SQL indexes on them,
 * which makes them readable in the `sqlite3` shell too. Tables not listed
 * here get only `id` and `data`.
 */
interface TableShape {
  /** column name → JSON path in `data` (or a full SQL expression when it starts with '='). */
  columns: Record<string, string>;
  /**
   * Text columns written with `data`, derived from the record by a function the domain gives
   * the table (Table.derive): what SQL cannot compute cheaply (messages.view: the message's
   * API view as JSON text, see domain/message-texts.ts). NULL in rows written before it existed.
   */
  derived?: string[];
  /**
   * Integer columns counting the rows of another table that point at this row: column →
   * `{ of, by }` (rows of table `of` whose column `by` is this row's id). Triggers keep them
   * (countTriggers): what a correlated count(*) per row would answer, read with the row instead
   * (GET /patients: a seek into the other table's index per row cost more than the rest of the
   * page). A table made by an older msgctl gets the column and its counts when opened.
   */
  counts?: Record<string, { of: string; by: string }>;
  /** index name suffix → column list (optionally with WHERE ...). */
  indexes: Record<string, string>;
}

export const TABLE_SHAPES: Record<string, TableShape> = {
  patients: {
    columns: {
      org_id: '$.orgId',
      created_at: '$.created_at',
      deleted_at: '$.deleted_at',
      phone: '$.phone',
      mrn: '$.mrn',
      email_key: "=lower(json_extract(data, '$.email'))",
    },
    counts: { conversation_count: { of: 'conversations', by: 'patient_id' } },
    indexes: {
      roster: 'org_id, created_at, id WHERE deleted_at IS NULL',
      // Ending in (created_at, id), so "oldest first" comes from the index: without it the planner
      // walks the roster index in order and filters, which costs the whole roster per lookup.
      phone: 'org_id, phone, created_at, id WHERE deleted_at IS NULL',
      mrn: 'org_id, mrn, created_at, id WHERE deleted_at IS NULL',
      email: 'org_id, email_key, created_at, id WHERE deleted_at IS NULL',
    },
  },
  conversations: {
    columns: {
      org_id: '$.orgId',
      type: '$.type',
      patient_id: '$.patientId',
      phone_number_id: '$.phoneNumberId',
      channel: '$.channel',
    },
    indexes: { org: 'org_id, type', patient: 'patient_id, phone_number_id, channel' },
  },
  messages: {
    columns: {
      org_id: '$.orgId',
      conversation_id: '$.conversationId',
      created_ms: '$.createdMs',
      seq: '$.seq',
      reply_to_id: '$.replyToId',
      sender_kind: '$.senderKind',
      channel: '$.channel',
      delivery_status: '$.delivery.status',
    },
    indexes: {
      timeline: 'org_id, created_ms, id',
      conversation: 'conversation_id, created_ms, id',
      in_flight: 'delivery_status, channel',
      replies: 'reply_to_id WHERE reply_to_id IS NOT NULL',
    },
    derived: ['view'],
  },
  phone_numbers: { columns: { org_id: '$.orgId', number: '$.number' }, indexes: { org: 'org_id, number' } },
  api_keys: { columns: { org_id: '$.orgId', token: '$.token' }, indexes: { token: 'token' } },
  users: { columns: { org_id: '$.orgId', email: '$.email' }, indexes: { org: 'org_id' } },
  idempotency: { columns: { created_ms: '$.createdMs' }, indexes: { age: 'created_ms' } },
  campaign_recipients: { columns: { campaign_id: '$.campaignId', seq: '$.seq' }, indexes: { campaign: 'campaign_id, seq' } },
};

const NAME = /^[a-z][a-z0-9_]*$/;

/** CREATE statements for a table (idempotent: IF NOT EXISTS). */
export function createStatements(name: string): string[] {
  if (!NAME.test(name)) throw new Error(`bad table name ${name}`);
  const shape = TABLE_SHAPES[name];
  const columns = Object.entries(shape?.columns ?? {}).map(([column, path]) => {
    const expr = path.startsWith('=') ? path.slice(1) : `json_extract(data, '${path}')`;
    return `,\n  ${column} GENERATED ALWAYS AS (${expr}) VIRTUAL`;
  });
  const stored = storedColumns(name).map((definition) => `,\n  ${definition}`);
  const statements = [`CREATE TABLE IF NOT EXISTS ${name} (\n  id TEXT PRIMARY KEY NOT NULL,\n  data TEXT NOT NULL${stored.join('')}${columns.join('')}\n)`];
  for (const [suffix, spec] of Object.entries(shape?.indexes ?? {})) {
    const [cols, where] = spec.split(' WHERE ');
    statements.push(`CREATE INDEX IF NOT EXISTS ${name}_${suffix} ON ${name} (${cols})${where ? ` WHERE ${where}` : ''}`);
  }
  return statements;
}

/** Definitions of the columns a table stores besides id and data: derived texts, then counts. */
function storedColumns(name: string): string[] {
  const shape = TABLE_SHAPES[name];
  return [
    ...(shape?.derived ?? []).map((column) => `${column} TEXT`),
    ...Object.keys(shape?.counts ?? {}).map((column) => `${column} INTEGER NOT NULL DEFAULT 0`),
  ];
}

/** Stored columns (definitions) a table made by an older msgctl lacks: the store adds them at open. */
export function missingColumns(name: string, existing: string[]): string[] {
  return storedColumns(name).filter((definition) => !existing.includes(definition.split(' ')[0]!));
}

export interface CountTriggers {
  /** The table holding the count, the count column, and the counted table and its column. */
  owner: string;
  column: string;
  of: string;
  by: string;
  /** CREATE TRIGGER statements (IF NOT EXISTS), named `${owner}_${column}_*`. */
  statements: string[];
  /** Sets every row's count from scratch: for a column just added, or triggers just made. */
  recount: string;
}

/**
 * The counts (TableShape.counts) that involve `table`, as owner or as the counted table, with
 * the triggers that keep them: a counted row inserted, deleted, or moved to another owner (its
 * `by` column changed), and an owner row inserted after rows that point at it.
 */
export function countTriggers(table: string): CountTriggers[] {
  const out: CountTriggers[] = [];
  for (const [owner, shape] of Object.entries(TABLE_SHAPES)) {
    for (const [column, { of, by }] of Object.entries(shape.counts ?? {})) {
      if (owner !== table && of !== table) continue;
      const add = (row: 'NEW' | 'OLD', delta: string) => `UPDATE ${owner} SET ${column} = ${column} ${delta} WHERE id = ${row}.${by};`;
      const name = `${owner}_${column}`;
      out.push({
        owner,
        column,
        of,
        by,
        statements: [
          `CREATE TRIGGER IF NOT EXISTS ${name}_insert AFTER INSERT ON ${of} WHEN NEW.${by} IS NOT NULL BEGIN ${add('NEW', '+ 1')} END`,
          `CREATE TRIGGER IF NOT EXISTS ${name}_delete AFTER DELETE ON ${of} WHEN OLD.${by} IS NOT NULL BEGIN ${add('OLD', '- 1')} END`,
          `CREATE TRIGGER IF NOT EXISTS ${name}_move AFTER UPDATE ON ${of} WHEN OLD.${by} IS NOT NEW.${by} BEGIN ${add('OLD', '- 1')} ${add('NEW', '+ 1')} END`,
          `CREATE TRIGGER IF NOT EXISTS ${name}_owner AFTER INSERT ON ${owner} WHEN EXISTS (SELECT 1 FROM ${of} WHERE ${by} = NEW.id) ` +
            `BEGIN UPDATE ${owner} SET ${column} = (SELECT count(*) FROM ${of} WHERE ${by} = NEW.id) WHERE id = NEW.id; END`,
        ],
        recount: `UPDATE ${owner} SET ${column} = (SELECT count(*) FROM ${of} WHERE ${of}.${by} = ${owner}.id)`,
      });
    }
  }
  return out;
}
