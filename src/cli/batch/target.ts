/**
 * Where a batch goes: the API base URL and the organization the credential
 * acts for (GET /organization, asked once per run). It is part of every
 * batch's identity (docs/scripting.md, "What makes a batch"), so practising
 * in the sandbox, or sending with another organization's key, is a batch of
 * its own there: its journal and its idempotency keys are not the ones of
 * the same file sent elsewhere.
 */
import type { ApiClient } from '../api/client.js';
import { ORGANIZATION } from '../api/shapes.js';

export interface BatchTarget {
  /** The base URL as requests are resolved against it (normalised, trailing slash). */
  baseUrl: string;
  organizationId: string;
}

export async function fetchBatchTarget(client: ApiClient, signal?: AbortSignal): Promise<BatchTarget> {
  const organization = await client.get('/organization', undefined, signal, ORGANIZATION);
  return { baseUrl: client.baseUrl.href, organizationId: organization.id };
}
