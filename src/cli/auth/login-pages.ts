/**
 * What the browser tab shows when it comes back to `msgctl login`'s loopback
 * listener. Static text only: nothing from the request is echoed into the page.
 */

function page(title: string, message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>msgctl: ${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;color:#1d2330}</style>
</head><body><h1>${title}</h1><p>${message}</p></body></html>
`;
}

export const SIGNED_IN_PAGE = page('Signed in', 'msgctl has what it needs. You can close this tab and return to the terminal.');

export const DENIED_PAGE = page('Access denied', 'You denied access, so msgctl is not signed in. You can close this tab.');

export const STATE_MISMATCH_PAGE = page(
  'This sign-in does not match',
  'This response does not belong to the login msgctl is waiting for (perhaps an old tab). Nothing was signed in by it; msgctl is still waiting for its own sign-in (or run <code>msgctl login</code> again).',
);

export const FAILED_PAGE = page('Sign-in failed', 'The authorization server did not sign you in. See the terminal for details. You can close this tab.');

export const NOT_FOUND_PAGE = page('Not found', 'msgctl is only waiting for the sign-in callback.');
