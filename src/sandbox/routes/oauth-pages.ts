/**
 * The HTML the sandbox's authorization endpoint shows in a browser: the
 * sign-in and approve page, the refusal pages, and error pages. Plain HTML
 * with inline styles and no scripts, so it works in any browser (and is easy
 * to drive from tests). Every interpolated value goes through `esc`.
 */
import type { OAuthClientRecord } from '../domain/access-tokens.js';
import type { SignInRequestRecord } from '../domain/oauth-records.js';

const SCOPE_TEXT: Record<string, string> = {
  'messages.read': 'Read messages in your patient conversations and team chats',
  'messages.write': 'Send messages as you',
  'patients.read': 'Look up patient records',
  'patients.write': 'Create and update patient records',
  offline_access: 'Stay connected when you are away (refresh tokens)',
  'messages:read': 'Read conversation messages (older endpoints)',
  'conversations:read': 'Read conversations (older endpoints)',
  'participants:read': 'See who is in a conversation',
  'reactions:write': 'Add emoji reactions as you',
  'exports:read': 'Download conversation exports',
};

export function esc(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Messaging Service sandbox</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; background: #f4f5f7; color: #1d2330; margin: 0; }
  main { max-width: 28rem; margin: 3rem auto; background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 1px 4px #0002; }
  h1 { font-size: 1.3rem; margin-top: 0; }
  label { display: block; margin-top: 1rem; font-weight: 600; }
  input[type=email], input[type=password] { width: 100%; box-sizing: border-box; padding: .5rem; font: inherit; }
  .buttons { display: flex; gap: .75rem; margin-top: 1.5rem; }
  button { font: inherit; padding: .5rem 1.25rem; border-radius: 4px; border: 1px solid #8891a4; background: #fff; cursor: pointer; }
  button.primary { background: #1f5fd1; border-color: #1f5fd1; color: #fff; }
  .alert { background: #fdecea; border: 1px solid #e8a29b; padding: .75rem; border-radius: 4px; }
  .note { color: #5b6478; font-size: .9rem; }
  code { background: #eef0f4; padding: 0 .25rem; border-radius: 3px; }
</style>
</head>
<body><main>
${body}
<p class="note">Messaging Service <strong>sandbox</strong>: test data only, never real patient information.</p>
</main></body>
</html>
`;
}

function scopeList(scopes: string[]): string {
  const items = scopes.map((s) => `<li><code>${esc(s)}</code> — ${esc(SCOPE_TEXT[s] ?? s)}</li>`).join('\n');
  return `<ul id="scopes">\n${items}\n</ul>`;
}

/** Email, password, Approve and Deny, posting back with the request's id. */
function decisionForm(request: SignInRequestRecord, email: string): string {
  return `<form method="post" action="/oauth/authorize/decision">
  <input type="hidden" name="request_id" value="${esc(request.id)}">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" value="${esc(email)}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password">
  <div class="buttons">
    <button class="primary" type="submit" name="decision" value="approve">Approve</button>
    <button type="submit" name="decision" value="deny">Deny</button>
  </div>
</form>`;
}

export function signInPage(
  request: SignInRequestRecord,
  client: OAuthClientRecord,
  options: { error?: string; email?: string } = {},
): string {
  const alert = options.error ? `<p class="alert" role="alert">${esc(options.error)}</p>\n` : '';
  return layout(`Connect ${client.name}`, `<h1>Sign in to connect <span id="app-name">${esc(client.name)}</span></h1>
${alert}<p><strong>${esc(client.name)}</strong> wants to act as you. It is asking to:</p>
${scopeList(request.scopes)}
<p class="note">Only an org admin can approve. You can revoke access at any time (<code>msgctl logout</code>).</p>
${decisionForm(request, options.email ?? '')}`);
}

/** Signed in, but not allowed to approve: say why, and offer another sign-in or going back. */
export function refusedPage(request: SignInRequestRecord, title: string, message: string): string {
  return layout(title, `<h1 id="refused">${esc(title)}</h1>
<p class="alert" role="alert">${esc(message)}</p>
<p>Sign in as someone who can approve, or press Deny to tell the app.</p>
${decisionForm(request, '')}`);
}

export function errorPage(title: string, message: string): string {
  return layout(title, `<h1 id="error">${esc(title)}</h1>
<p class="alert" role="alert">${esc(message)}</p>`);
}
