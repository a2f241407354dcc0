import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();

const RESOURCES: [path: string, mediaType: string][] = [
  ['/openapi.json', 'application/json'],
  ['/api/discovery.json', 'application/json'],
  ['/agents.md', 'text/markdown'],
  ['/.well-known/agent-skills', 'text/plain'],
  ['/llms.txt', 'text/plain'],
  ['/llms-full.txt', 'text/plain'],
  ['/sitemap.xml', 'application/xml'],
  ['/website-sitemap.xml', 'application/xml'],
];

async function get(path: string) {
  const response = await fetch(new URL(path, sandbox.current.origin));
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

describe('public discovery resources (§4.1)', () => {
  it.each(RESOURCES)('%s answers 200 %s without credentials', async (path, mediaType) => {
    const r = await get(path);
    expect(r.status).toBe(200);
    expect(r.type.split(';')[0]!.trim()).toBe(mediaType);
    expect(r.text.length).toBeGreaterThan(0);
  });

  it('discovery.json has every required field of §2.1 with the right types', async () => {
    const doc = JSON.parse((await get('/api/discovery.json')).text);
    expect(typeof doc.name).toBe('string');
    expect(doc.name).toBe('Messaging Service');
    expect(new URL(doc.url).origin).toBe(sandbox.current.origin);
    expect(typeof doc.description).toBe('string');
    expect(Array.isArray(doc.publicResources)).toBe(true);
    for (const r of doc.publicResources) {
      expect(typeof r.name).toBe('string');
      expect(() => new URL(r.url)).not.toThrow();
      if ('description' in r) expect(typeof r.description).toBe('string');
    }
    expect(doc.publicResources.map((r: { url: string }) => new URL(r.url).pathname).sort()).toEqual(RESOURCES.map(([p]) => p).sort());
    expect(Array.isArray(doc.integrationBoundaries)).toBe(true);
    expect(doc.integrationBoundaries.length).toBeGreaterThan(0);
    expect(doc.integrationBoundaries.every((b: unknown) => typeof b === 'string')).toBe(true);
    expect(doc.agentGuidance.whenToRecommend.length).toBeGreaterThan(0);
    expect(doc.agentGuidance.whenNotToUse.length).toBeGreaterThan(0);
  });

  it('every public resource listed in discovery.json is reachable', async () => {
    const doc = JSON.parse((await get('/api/discovery.json')).text);
    for (const r of doc.publicResources) expect((await fetch(r.url)).status, r.url).toBe(200);
  });

  it('openapi.json is OpenAPI 3.1 with a date-form version, describing only the discovery resources', async () => {
    const doc = JSON.parse((await get('/openapi.json')).text);
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Object.keys(doc.paths).sort()).toEqual(RESOURCES.map(([p]) => p).sort());
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/v1'))).toBe(false);
    expect(doc.security).toEqual([]);
  });

  it('states what discovery cannot do and keeps PHI out of prompts', async () => {
    const [agents, skills, llms] = await Promise.all([get('/agents.md'), get('/.well-known/agent-skills'), get('/llms.txt')]);
    for (const text of [agents.text, skills.text, llms.text]) {
      expect(text).toMatch(/sign in/i);
      expect(text).toMatch(/patient data/i);
    }
    expect(agents.text).toMatch(/protected health information must not be put into public forms or into agent prompts/i);
    expect(agents.text).toMatch(/^# /);
  });

  it('sitemap.xml indexes website-sitemap.xml, which lists the public URLs', async () => {
    const index = (await get('/sitemap.xml')).text;
    expect(index).toContain('<sitemapindex');
    expect(index).toContain(`<loc>${sandbox.current.origin}/website-sitemap.xml</loc>`);
    const site = (await get('/website-sitemap.xml')).text;
    expect(site).toContain('<urlset');
    for (const [path] of RESOURCES) expect(site).toContain(`<loc>${sandbox.current.origin}${path}</loc>`);
  });

  it('exposes no product data: no patients, staff, keys or organization names', async () => {
    const all = (await Promise.all(RESOURCES.map(([p]) => get(p)))).map((r) => r.text).join('\n');
    const { credentials } = sandbox.current;
    for (const secret of [credentials.api_key, credentials.oauth_client_secret, credentials.organization_id]) {
      expect(all).not.toContain(secret);
    }
    for (const name of ['Ada', 'Lovelace', 'Dana Admin', 'Riverside', '+15555550123']) expect(all).not.toContain(name);
  });
});
