/**
 * First pass over the CSV: bind the template and columns to the header,
 * render and check every row, and hash the bytes for the batch identity.
 * Only counts are kept; invalid rows are reported as they are found.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import { openCsv } from '../csv/read.js';
import { bindTemplate, type BoundTemplate } from '../send/template.js';
import { UsageError } from '../errors.js';
import { hashingTap } from './identity.js';
import { planColumns, prepareRow, type BatchColumns } from './rows.js';
import type { BatchSettings } from './settings.js';

export interface Validated {
  sha256: string;
  template: BoundTemplate;
  columns: BatchColumns;
  valid: number;
  invalid: number;
  /** Size and mtime, to notice the file changing before the send pass. */
  fingerprint: string;
}

export async function validatePass(
  settings: BatchSettings,
  onInvalid: (row: number, problems: string[]) => void,
): Promise<Validated> {
  const before = await fileFingerprint(settings.csv);
  const { tap, digest } = hashingTap();
  // Read errors (no such file, a directory…) reach openCsv through the tap and become usage errors there.
  pipeline(createReadStream(settings.csv), tap, () => {});
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
  for await (const row of file.rows) {
    const prepared = prepareRow(row, template, columns, settings.defaults);
    if (prepared.ok) valid++;
    else {
      invalid++;
      onInvalid(row.row, prepared.problems);
    }
  }
  return { sha256: digest(), template, columns, valid, invalid, fingerprint: before };
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
