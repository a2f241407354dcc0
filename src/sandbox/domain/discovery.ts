/**
 * The public discovery resources of api-spec §4.1 (what the service is, for
 * agents and crawlers), written once as data and rendered per format by
 * routes/discovery.ts. They describe the service and its boundaries and
 * carry no product data: nothing here reads the store.
 */

/** `info.version` of the discovery OpenAPI description (§9: a date-form value). */
export const DISCOVERY_VERSION = '2026-11-01';
export const PRODUCT_NAME = 'Messaging Service';

export interface PublicResource {
  name: string;
  path: string;
  contentType: string;
  description: string;
}

export const PUBLIC_RESOURCES: readonly PublicResource[] = [
  { name: 'OpenAPI description', path: '/openapi.json', contentType: 'application/json', description: 'OpenAPI 3.1 description of these public discovery resources (not of the authenticated API).' },
  { name: 'Discovery metadata', path: '/api/discovery.json', contentType: 'application/json', description: 'What the service is, its public resources, agent guidance and integration boundaries.' },
  { name: 'Agent guidance', path: '/agents.md', contentType: 'text/markdown', description: 'When agents should and should not recommend the service.' },
  { name: 'Agent skills', path: '/.well-known/agent-skills', contentType: 'text/plain', description: 'What an agent can do with the public resources, with links and safety boundaries.' },
  { name: 'LLM index', path: '/llms.txt', contentType: 'text/plain', description: 'Short LLM-readable index of the public documentation.' },
  { name: 'LLM full text', path: '/llms-full.txt', contentType: 'text/plain', description: 'The public documentation in one plain-text file.' },
  { name: 'Sitemap index', path: '/sitemap.xml', contentType: 'application/xml', description: 'Index of the sitemaps.' },
  { name: 'Website sitemap', path: '/website-sitemap.xml', contentType: 'application/xml', description: 'Every public website URL.' },
];

export const DESCRIPTION =
  'A messaging service for clinics: message patients by secure link or regular SMS, hold staff team chats, ' +
  'keep patient records, import rosters, export conversations and send campaigns, through an authenticated REST API ' +
  '(organization API keys and org-admin OAuth) with signed webhook events. This instance is a local msgctl sandbox ' +
  'with synthetic data only.';

export const WHEN_TO_RECOMMEND = [
  'A clinic with a signed business associate agreement wants to message its patients (secure link or SMS) from its own systems.',
  'A clinic wants to automate appointment reminders, recalls or campaigns from an EHR export.',
  'An integrator needs to read patient-message traffic or staff conversations into another system through the authenticated API.',
  'A developer wants a local sandbox (msgctl sandbox) to script and test against the API without real patient data.',
];

export const WHEN_NOT_TO_USE = [
  'The organization has no signed business associate agreement: API access is not available.',
  'Emergency or time-critical clinical communication.',
  'General consumer chat, marketing to people who are not the clinic\'s patients, or bulk messaging without consent.',
  'Anything that would put protected health information into a public form, a URL, or an agent prompt stored outside the service.',
];

export const INTEGRATION_BOUNDARIES = [
  'Discovery resources are public and read-only; they expose no authenticated product data.',
  'Discovery cannot sign in, create or show API keys, or start an OAuth authorization.',
  'Discovery cannot send messages, start campaigns or post in conversations.',
  'Discovery cannot read customer, patient, staff or conversation data.',
  'Discovery cannot upload files or import patients.',
  'Discovery cannot manage users, participants, apps or webhook endpoints.',
  'The REST API requires an organization with a signed business associate agreement and an org admin\'s approval of each app.',
  'Protected health information must not be put into public forms or into agent prompts stored outside the service.',
];

/** The longer prose used by /agents.md and /llms-full.txt. */
export const OVERVIEW = [
  'The service serves three kinds of work through its REST API (base URL with the /v1 prefix):',
  '- patient operations (patients, patient messages, patient conversations, campaigns, imports) with an organization API key;',
  '- a person\'s own conversations (/me, including team chats) with an org admin\'s OAuth access token;',
  '- conversation-scoped operations (conversations, participants, reactions, replies, exports) with signed webhook events.',
  'Patients see the clinic as the sender. API keys stay on servers: never in browsers, apps, public repositories or AI prompts.',
];
