/**
 * OAuth endpoint errors (RFC 6749 §5.2, RFC 7009 §2.2.1). They are not API
 * problems: the token and revocation endpoints answer
 * `{ "error": …, "error_description": … }` as OAuth clients expect.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'unsupported_token_type';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** 401 only for invalid_client (with WWW-Authenticate), 400 otherwise. */
    readonly status: 400 | 401 = error === 'invalid_client' ? 401 : 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  toBody() {
    return { error: this.error, error_description: this.description };
  }
}
