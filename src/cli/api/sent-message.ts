/**
 * The message a 2xx answer to POST /patient-messages says was sent. An answer without one is
 * not the API's (a stand-in, a proxy, a broken deployment): msgctl says so, rather than
 * failing on the missing field or printing a record of blanks.
 */
import type { Message, SendMessageResponse } from '../../contract/api.js';
import type { ApiResponse } from './client.js';
import { CliError } from '../errors.js';

export function sentMessage(response: ApiResponse<SendMessageResponse>, hints: string[] = []): Message {
  const message: unknown = (response.data as { message?: unknown } | null)?.message;
  if (message !== null && typeof message === 'object' && typeof (message as { id?: unknown }).id === 'string') return message as Message;
  const requestId = response.requestId ? ` (request id ${response.requestId})` : '';
  throw new CliError(`POST /patient-messages answered HTTP ${response.status} without the message it sent${requestId}: not an answer of the Messaging Service API.`, undefined, hints);
}
