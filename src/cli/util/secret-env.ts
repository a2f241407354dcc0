/**
 * The environment a program msgctl starts gets, less the variables that hold a credential
 * (docs/authentication.md, docs/events.md): a pager, the keychain helper or `node --version`
 * has no use for them, and a secret goes nowhere but to the API (docs/security.md, §2).
 */
export const SECRET_VARIABLES = ['MSGCTL_API_KEY', 'MSGCTL_TOKEN', 'MSGCTL_CLIENT_SECRET', 'MSGCTL_WEBHOOK_SECRET'] as const;

export function withoutSecrets(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const copy = { ...env };
  for (const name of SECRET_VARIABLES) delete copy[name];
  return copy;
}
