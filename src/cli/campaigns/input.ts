/**
 * Local checks on campaigns flags, so a bad value exits 2 before any request:
 * campaign and patient ids must be UUIDs, bodies fit the 1,600-character
 * limit, and --from is normalised to E.164 like `msgctl send --from`.
 */
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { LIMITS } from '../../contract/api.js';
import { looksLikeUuid } from '../util/ids.js';
import { bodyLength, givenText } from '../util/text.js';

/** `/campaigns/{id}` plus `rest`, refusing an id that is not a UUID. */
export function campaignPath(id: string, rest = ''): string {
  if (!looksLikeUuid(id)) throw new UsageError(`"${id}" is not a campaign id (a UUID, as printed by \`msgctl campaigns list\`).`);
  return `/campaigns/${id.toLowerCase()}${rest}`;
}

export function patientIds(values: readonly string[]): string[] {
  const bad = values.filter((v) => !looksLikeUuid(v));
  if (bad.length) {
    throw new UsageError(`--patient takes patient ids (UUIDs); not one: ${bad.map((b) => `"${b}"`).join(', ')}.`, [
      'To add patients by phone or MRN, put them in a CSV and use --csv FILE.',
    ]);
  }
  return values.map((v) => v.toLowerCase());
}

/** --body or --body-file (`-` = stdin); undefined when neither was given. */
export async function readCampaignBody(ctx: Context, body: string | undefined, bodyFile: string | undefined): Promise<string | undefined> {
  if (body !== undefined && bodyFile !== undefined) throw new UsageError('Give --body or --body-file, not both.');
  let text = body === undefined ? undefined : givenText(body, '--body');
  if (bodyFile !== undefined) {
    const { readFileText } = await import('../util/text-input.js');
    text = await readFileText(ctx, bodyFile, '--body-file');
  }
  if (text === undefined) return undefined;
  if (!text.trim()) throw new UsageError('The campaign body is empty.');
  const length = bodyLength(text);
  if (length > LIMITS.bodyMaxChars) {
    throw new UsageError(`The campaign body is ${length} characters; the limit is ${LIMITS.bodyMaxChars}. Nothing was sent.`);
  }
  return text;
}

/** --from in any common format → E.164 (region: the profile's, else US). */
export async function normaliseFrom(ctx: Context, from: string | undefined): Promise<string | undefined> {
  if (from === undefined) return undefined;
  const { normalizePhone } = await import('../util/phone.js');
  const result = normalizePhone(from, await ctx.region());
  if (!result.ok) throw new UsageError(`--from "${from}": ${result.reason}`);
  return result.e164;
}
