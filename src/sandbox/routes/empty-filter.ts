/**
 * A filter given empty (`?patient_id=`, `?status=`: a script's unset shell variable) is 422
 * `validation_failed` at that parameter, never "no filter": the whole list could feed a
 * destructive script (docs/sandbox.md, "One request rule").
 */
import type { ApiRequest } from '../http/route.js';
import { problems } from '../problem.js';

/** `unfiltered`: what leaving the filter out does, for the message ("no filter", "list every patient"). */
export function refuseEmptyFilters(req: ApiRequest, names: readonly string[], unfiltered = 'for no filter'): void {
  for (const name of names) {
    const value = req.query[name];
    if (value !== undefined && value.trim() === '') {
      throw problems.validation([{ path: name, code: 'required', message: `${name} is empty; omit it ${unfiltered}.` }]);
    }
  }
}
