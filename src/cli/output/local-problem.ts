/**
 * The problem shape of a failure msgctl finds itself (no service answer behind it),
 * so --json consumers parse one format. In a module of its own: render-error.ts is
 * loaded only once a command fails, while direct-output.ts, loaded by every command,
 * reports a stdout it cannot write in the same shape.
 */
export function localProblem(code: string, title: string, detail: string, hints: string[] = [], requestId: string | null = null) {
  return { type: 'about:blank', title, status: null, code, detail, hints, request_id: requestId, field_errors: [] };
}
