/**
 * A finished import's row outcomes, kept as the bytes the service sent and
 * parsed one at a time as they are printed.
 *
 * The last poll of a chunk answers with up to 5,000 outcomes. Parsed whole,
 * then mapped, merged and sorted, they were three copies of 5,000 objects
 * alive while the chunk's report was written: data that survives
 * young-generation collections, which is what makes V8 grow its heap (and
 * the CLI's peak memory grew with the file). Here only the body's Buffer
 * (outside the JS heap) and typed arrays of offsets and row numbers stay;
 * each outcome object lives just long enough to be printed.
 */
import type { ImportRowOutcome, PatientImport } from '../../contract/api.js';
import { parseBody } from '../api/parse-body.js';
import { splitArrayMember } from '../api/json-page.js';
import { shapeProblem } from '../api/answer-shape.js';
import { ROW_OUTCOME } from '../api/shapes.js';
import type { RowOutcome } from './outcomes.js';

export interface ServiceResults {
  readonly length: number;
  /** The i-th outcome as the service listed it, parsed anew at each call. */
  at(i: number): ImportRowOutcome;
}

/**
 * An import from a GET /patient-imports/{id} body: the import without its
 * results, and the results left unparsed. A body the splitter does not
 * recognise (a running import's `results: null`, anything unusual) is
 * parsed the ordinary way.
 */
export function importFromBody(
  body: Buffer,
  contentType: string | undefined,
  /** The error for an outcome of the wrong shape (shapes.ts), found as it is parsed; `problem` names the field. */
  wrongOutcome: (problem: string) => Error,
): { current: PatientImport; results: ServiceResults | null } {
  const split = splitArrayMember(body, 'results');
  if (!split) {
    const current = parseBody(body, contentType) as PatientImport;
    return { current, results: current?.results ? parsedResults(current.results) : null };
  }
  const { elements } = split;
  const results: ServiceResults = {
    length: elements.length,
    at: (i) => {
      const outcome: unknown = JSON.parse(body.toString('utf8', elements.start(i), elements.end(i)));
      const problem = shapeProblem(outcome, ROW_OUTCOME.fields, `results[${i}]`);
      if (problem) throw wrongOutcome(problem);
      return outcome as ImportRowOutcome;
    },
  };
  return { current: { ...split.rest, results: null } as PatientImport, results };
}

function parsedResults(list: ImportRowOutcome[]): ServiceResults {
  return { length: list.length, at: (i) => list[i]! };
}

/**
 * Local and service outcomes of one chunk in row order, one at a time: what
 * `mergeByRow` (outcomes.ts) returns, without building it. `local` is in row
 * order (rows are checked in file order); the service's are sorted here by
 * row, ties kept in the service's order, and a local row comes before a
 * service row with the same number, as in mergeByRow's stable sort.
 */
export function* inRowOrder(
  local: readonly RowOutcome[],
  service: ServiceResults,
  toOutcome: (outcome: ImportRowOutcome) => RowOutcome,
): Generator<RowOutcome> {
  const rows = new Float64Array(service.length);
  let sorted = true;
  for (let i = 0; i < rows.length; i++) {
    rows[i] = service.at(i).row;
    if (i > 0 && rows[i]! < rows[i - 1]!) sorted = false;
  }
  const order = new Uint32Array(rows.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  if (!sorted) order.sort((a, b) => rows[a]! - rows[b]! || a - b);
  let l = 0;
  for (const i of order) {
    while (l < local.length && local[l]!.row <= rows[i]!) yield local[l++]!;
    yield toOutcome(service.at(i));
  }
  while (l < local.length) yield local[l++]!;
}
