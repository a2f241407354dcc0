/**
 * First pass over the CSV: bind the template and columns to the header,
 * render and check every row, and hash the bytes for the batch identity.
 * Invalid rows are reported as they are found; the first rows (up to
 * KEPT_ROWS / KEPT_BODY_CHARS) are kept as prepared, for the send pass.
 */
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import type { SendMessageRequest } from '../../contract/api.js';
import { openCsv, openCsvFile } from '../csv/read.js';
import { bindTemplate, type BoundTemplate } from '../send/template.js';
import { UsageError } from '../errors.js';
import { hashingTap } from './identity.js';
import { planColumns, prepareRow, type BatchColumns } from './rows.js';
import type { BatchSettings } from './settings.js';

export type PlannedRow = { row: number; ok: true; request: SendMessageRequest } | { row: number; ok: false; problems: string[] };

export interface Validated {
  sha256: string;
  template: BoundTemplate;
  columns: BatchColumns;
  valid: number;
  invalid: number;
  /** Invalid rows whose recipient cell was empty or unusable: all of them suggests the wrong column. */
  badRecipients: number;
  /** Rows (the first few) whose birth date both orders read differently, with no order given. */
  ambiguousDateRows: number[];
  ambiguousDates: number;
  /** Size and mtime, to notice the file changing before the send pass. */
  fingerprint: string;
  /**
   * The first rows as prepared, in file order, so the send pass neither
   * parses the file nor normalises phone numbers (most of a row's CPU) a
   * second time. Capped, so memory stays bounded for any file size; the
   * send pass reads the rows past the cap from the file again.
   */
  head: PlannedRow[];
  /** True when `head` holds every row of the file. */
  complete: boolean;
  headers: readonly string[];
}

/** Whichever comes first: some MB at most. */
/**
 * Small, so peak memory does not depend on the file: past the first thousand rows
 * the send pass re-reads the file, which costs a little CPU (phone numbers in the
 * common shapes no longer need libphonenumber) and keeps RSS flat from 1k to 100k rows.
 */
export const KEPT_ROWS = 1_000;
export const KEPT_BODY_CHARS = 256_000;

export async function validatePass(
  settings: BatchSettings,
  onInvalid: (row: number, problems: string[]) => void,
): Promise<Validated> {
  const before = await fileFingerprint(settings.csv);
  const { tap, digest } = hashingTap();
  // The identity is that of the text, not the bytes: a BOM or CRLF alone (the file saved again
  // in Notepad or Excel) is the same batch. Read errors reach openCsv through the tap.
  pipeline(await openCsvFile(settings.csv, settings.csv), tap, () => {});
  const file = await openCsv(tap, { label: settings.csv });
  let template: BoundTemplate;
  let columns: BatchColumns;
  try {
    template = bindTemplate(settings.parts, file.headers);
    columns = planColumns(file.headers, settings.toColumn);
  } catch (err) {
    file.close();
    throw err;
  }
  let valid = 0;
  let invalid = 0;
  let badRecipients = 0;
  const ambiguousDateRows: number[] = [];
  let ambiguousDates = 0;
  const head: PlannedRow[] = [];
  let complete = true;
  let keptChars = 0;
  for await (const row of file.rows) {
    const prepared = prepareRow(row, template, columns, settings.defaults);
    if (prepared.ok) valid++;
    else {
      invalid++;
      if (prepared.badRecipient) badRecipients++;
      if (prepared.ambiguousDate && ambiguousDates++ < 5) ambiguousDateRows.push(row.row);
      onInvalid(row.row, prepared.problems);
    }
    if (complete && head.length < KEPT_ROWS && keptChars < KEPT_BODY_CHARS) {
      head.push({ row: row.row, ...prepared });
      keptChars += prepared.ok ? prepared.request.body.length : 0;
    } else complete = false;
  }
  return { sha256: digest(), template, columns, valid, invalid, badRecipients, ambiguousDateRows, ambiguousDates, fingerprint: before, head, complete, headers: file.headers };
}

/** Every row in file order: the kept ones, then the rest prepared again from the file. */
export async function* plannedRows(settings: BatchSettings, validated: Validated): AsyncGenerator<PlannedRow> {
  const last = validated.head.at(-1)?.row ?? 0;
  // Handed out and let go: the kept rows are not held until the batch ends.
  const head = validated.head;
  validated.head = [];
  for (let i = 0; i < head.length; i++) {
    const planned = head[i]!;
    head[i] = undefined as unknown as PlannedRow;
    yield planned;
  }
  if (validated.complete) return;
  const file = await openCsv(settings.csv, { label: settings.csv });
  try {
    for await (const row of file.rows) {
      if (row.row <= last) continue;
      yield { row: row.row, ...prepareRow(row, validated.template, validated.columns, settings.defaults) };
    }
  } finally {
    file.close();
  }
}

export async function fileFingerprint(path: string): Promise<string> {
  try {
    const s = await stat(path);
    return `${s.size}:${s.mtimeMs}`;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
}
