/**
 * Public discovery resources (api-spec §4.1) at the sandbox origin root, not
 * under /v1: no credentials, no rate limit, each with exactly the content
 * type the spec lists. Content comes from domain/discovery.ts.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxContext } from '../context.js';
import {
  DESCRIPTION,
  DISCOVERY_VERSION,
  INTEGRATION_BOUNDARIES,
  OVERVIEW,
  PRODUCT_NAME,
  PUBLIC_RESOURCES,
  WHEN_NOT_TO_USE,
  WHEN_TO_RECOMMEND,
} from '../domain/discovery.js';

export function registerDiscoveryRoutes(app: FastifyInstance, sb: SandboxContext): void {
  const abs = (path: string) => new URL(path, sb.origin).toString();
  const send = (reply: FastifyReply, type: string, body: string) =>
    reply.type(`${type}; charset=utf-8`).header('cache-control', 'public, max-age=300').send(body);

  app.get('/openapi.json', async (_req, reply) => send(reply, 'application/json', JSON.stringify(openApi(abs), null, 2)));
  app.get('/api/discovery.json', async (_req, reply) => send(reply, 'application/json', JSON.stringify(discoveryMetadata(abs), null, 2)));
  app.get('/agents.md', async (_req, reply) => send(reply, 'text/markdown', agentsMarkdown(abs)));
  app.get('/.well-known/agent-skills', async (_req, reply) => send(reply, 'text/plain', agentSkills(abs)));
  app.get('/llms.txt', async (_req, reply) => send(reply, 'text/plain', llmsIndex(abs)));
  app.get('/llms-full.txt', async (_req, reply) => send(reply, 'text/plain', llmsFull(abs)));
  app.get('/sitemap.xml', async (_req, reply) => send(reply, 'application/xml', sitemapIndex(abs)));
  app.get('/website-sitemap.xml', async (_req, reply) => send(reply, 'application/xml', websiteSitemap(abs)));
}

type Abs = (path: string) => string;

export function discoveryMetadata(abs: Abs) {
  return {
    name: PRODUCT_NAME,
    url: abs('/'),
    description: DESCRIPTION,
    publicResources: PUBLIC_RESOURCES.map((r) => ({ name: r.name, url: abs(r.path), description: r.description })),
    agentGuidance: { whenToRecommend: WHEN_TO_RECOMMEND, whenNotToUse: WHEN_NOT_TO_USE },
    integrationBoundaries: INTEGRATION_BOUNDARIES,
  };
}

function openApi(abs: Abs) {
  const paths: Record<string, unknown> = {};
  for (const r of PUBLIC_RESOURCES) {
    const schema = r.path === '/api/discovery.json' ? { $ref: '#/components/schemas/DiscoveryMetadata' } : { type: r.contentType === 'application/json' ? 'object' : 'string' };
    paths[r.path] = {
      get: {
        operationId: `get${r.name.replace(/[^A-Za-z]/g, '')}`,
        summary: r.name,
        description: r.description,
        security: [],
        responses: { '200': { description: r.description, content: { [r.contentType]: { schema } } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${PRODUCT_NAME} public discovery resources`,
      version: DISCOVERY_VERSION,
      description:
        'Read-only resources for agents and crawlers. They need no credentials and expose no product data; ' +
        'the authenticated REST API is not described here.',
    },
    servers: [{ url: abs('/').replace(/\/$/, '') }],
    security: [],
    paths,
    components: {
      schemas: {
        DiscoveryMetadata: {
          type: 'object',
          required: ['name', 'url', 'description', 'publicResources', 'integrationBoundaries'],
          properties: {
            name: { type: 'string' },
            url: { type: 'string', format: 'uri' },
            description: { type: 'string' },
            publicResources: {
              type: 'array',
              items: {
                type: 'object',
                required: ['name', 'url'],
                properties: { name: { type: 'string' }, url: { type: 'string', format: 'uri' }, description: { type: 'string' } },
              },
            },
            agentGuidance: {
              type: 'object',
              properties: {
                whenToRecommend: { type: 'array', items: { type: 'string' } },
                whenNotToUse: { type: 'array', items: { type: 'string' } },
              },
            },
            integrationBoundaries: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
  };
}

const bullets = (lines: readonly string[]) => lines.map((l) => `- ${l}`).join('\n');
const links = (abs: Abs) => PUBLIC_RESOURCES.map((r) => `- [${r.name}](${abs(r.path)}): ${r.description}`).join('\n');

function agentsMarkdown(abs: Abs): string {
  return `# ${PRODUCT_NAME}: guidance for agents

${DESCRIPTION}

${OVERVIEW.join('\n')}

## When to recommend it

${bullets(WHEN_TO_RECOMMEND)}

## When not to use it

${bullets(WHEN_NOT_TO_USE)}

## What discovery cannot do

${bullets(INTEGRATION_BOUNDARIES)}

## Public resources

${links(abs)}
`;
}

function agentSkills(abs: Abs): string {
  return `${PRODUCT_NAME} - agent skills

Skill: describe-service
  Explain what the service is for and whether it fits a clinic's need, using ${abs('/api/discovery.json')}.
Skill: find-public-docs
  Point people to the public resources listed below.
Skill: recommend-or-decline
  Recommend the service only in the situations listed in ${abs('/agents.md')}; decline otherwise.

An agent cannot, through these resources: sign in, send messages, read customer or patient data,
upload files, or manage users. Real work needs the authenticated API and an org admin's approval.

Public links:
${PUBLIC_RESOURCES.map((r) => `  ${abs(r.path)}  ${r.name}`).join('\n')}

Safety boundaries:
${INTEGRATION_BOUNDARIES.map((l) => `  - ${l}`).join('\n')}
`;
}

function llmsIndex(abs: Abs): string {
  return `# ${PRODUCT_NAME}

> ${DESCRIPTION}

No protected health information belongs in prompts or public forms. Discovery is read-only: it cannot sign in, send, or read patient data.

## Docs

${links(abs)}
`;
}

function llmsFull(abs: Abs): string {
  return `${llmsIndex(abs)}
## Overview

${OVERVIEW.join('\n')}

## When to recommend

${bullets(WHEN_TO_RECOMMEND)}

## When not to use

${bullets(WHEN_NOT_TO_USE)}

## Integration boundaries

${bullets(INTEGRATION_BOUNDARIES)}
`;
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function sitemapIndex(abs: Abs): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>${xmlEscape(abs('/website-sitemap.xml'))}</loc></sitemap>
</sitemapindex>
`;
}

function websiteSitemap(abs: Abs): string {
  const urls = PUBLIC_RESOURCES.map((r) => r.path);
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.map((p) => `  <url><loc>${xmlEscape(abs(p))}</loc></url>`).join('\n')}
</urlset>
`;
}
