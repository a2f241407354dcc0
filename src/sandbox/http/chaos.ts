/**
 * Fault injection (`--chaos`): a share of API requests answer 429/500/503,
 * are delayed, or have their connection reset AFTER the request was handled
 * (the case that tests exactly-once: the work happened, the answer was lost).
 * Spec: comma-separated `kind=probability`, delay as `delay=P:MS`.
 *   429=0.1,500=0.05,503=0.05,reset=0.05,delay=0.1:300
 */
export interface ChaosSpec {
  status429: number;
  status500: number;
  status503: number;
  reset: number;
  delay: number;
  delayMs: number;
}

export function parseChaos(spec: string | undefined): ChaosSpec | null {
  if (!spec) return null;
  const out: ChaosSpec = { status429: 0, status500: 0, status503: 0, reset: 0, delay: 0, delayMs: 250 };
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [kind, value] = part.split('=');
    const [p, extra] = (value ?? '').split(':');
    const probability = p ? Number(p) : NaN;
    if (!kind || !(probability >= 0 && probability <= 1)) {
      throw new Error(`Bad --chaos entry "${part}": expected kind=probability with probability between 0 and 1.`);
    }
    switch (kind) {
      case '429': out.status429 = probability; break;
      case '500': out.status500 = probability; break;
      case '503': out.status503 = probability; break;
      case 'reset': out.reset = probability; break;
      case 'delay':
        out.delay = probability;
        if (extra !== undefined) {
          const ms = Number(extra);
          if (!extra || !Number.isFinite(ms) || ms < 0) throw new Error(`Bad --chaos entry "${part}": the delay must be milliseconds ≥ 0, e.g. delay=0.1:300.`);
          out.delayMs = ms;
        }
        break;
      default:
        throw new Error(`Unknown --chaos kind "${kind}" (expected 429, 500, 503, reset, delay).`);
    }
  }
  return out;
}

export type ChaosOutcome =
  | { kind: 'none' }
  | { kind: 'status'; status: 429 | 500 | 503 }
  | { kind: 'reset' }
  | { kind: 'delay'; ms: number };

/** One roll per request, in a fixed order so the shares add up as given. */
export function rollChaos(spec: ChaosSpec, random = Math.random): ChaosOutcome[] {
  const outcomes: ChaosOutcome[] = [];
  if (random() < spec.delay) outcomes.push({ kind: 'delay', ms: spec.delayMs });
  const r = random();
  let edge = spec.status429;
  if (r < edge) outcomes.push({ kind: 'status', status: 429 });
  else if (r < (edge += spec.status500)) outcomes.push({ kind: 'status', status: 500 });
  else if (r < (edge += spec.status503)) outcomes.push({ kind: 'status', status: 503 });
  else if (r < (edge += spec.reset)) outcomes.push({ kind: 'reset' });
  return outcomes;
}
