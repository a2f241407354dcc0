/**
 * Code blocks of the docs, so tests run the examples as written
 * (docs/platforms.md "Scheduling the nightly batch", the README).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..', '..');

/** Every fenced block of `doc` (a path under the repository) in `language`, in order. */
export function codeBlocks(doc: string, language: string): string[] {
  const text = readFileSync(join(repoRoot, doc), 'utf8');
  const blocks: string[] = [];
  const fence = new RegExp('^```' + language + '\\n([\\s\\S]*?)^```$', 'gm');
  for (const m of text.matchAll(fence)) blocks.push(m[1]!);
  return blocks;
}

export interface Crontab {
  /** NAME=value lines, as cron sets them for every job. */
  variables: Record<string, string>;
  /** The command of each job line (after the five time fields). */
  jobs: string[];
}

/** A crontab as cron reads it: comments and blank lines skipped, variables and jobs apart. */
export function parseCrontab(block: string): Crontab {
  const variables: Record<string, string> = {};
  const jobs: string[] = [];
  for (const raw of block.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const variable = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (variable) variables[variable[1]!] = variable[2]!;
    else {
      const job = /^(\S+\s+){5}(.*)$/.exec(line);
      if (!job) throw new Error(`not a crontab line: ${line}`);
      jobs.push(job[2]!);
    }
  }
  return { variables, jobs };
}

/** A property list (plist) value, from fast-xml-parser's ordered output. */
export type PlistValue = string | number | boolean | PlistValue[] | { [key: string]: PlistValue };

type Ordered = Record<string, unknown>[];

/** Reads an XML property list the way launchd does: dict keys pair with the element after them. */
export async function parsePlist(xml: string): Promise<PlistValue> {
  const { XMLParser, XMLValidator } = await import('fast-xml-parser');
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`not well-formed XML: ${JSON.stringify(valid.err)}`);
  const parsed = new XMLParser({ preserveOrder: true, ignoreDeclaration: true, trimValues: true }).parse(xml) as Ordered;
  const plist = parsed.find((node) => 'plist' in node)!.plist as Ordered;
  return value(plist.find((node) => !('#text' in node))!);
}

function text(children: Ordered): string {
  return children.map((c) => String(c['#text'] ?? '')).join('');
}

function value(node: Record<string, unknown>): PlistValue {
  const [tag] = Object.keys(node).filter((k) => k !== ':@');
  const children = node[tag!] as Ordered;
  switch (tag) {
    case 'string':
      return text(children);
    case 'integer':
      return Number(text(children));
    case 'true':
      return true;
    case 'false':
      return false;
    case 'array':
      return children.map(value);
    case 'dict': {
      const dict: Record<string, PlistValue> = {};
      for (let i = 0; i < children.length; i += 2) {
        const key = children[i]!;
        if (!('key' in key)) throw new Error('a plist dict must alternate <key> and a value');
        dict[text(key.key as Ordered)] = value(children[i + 1]!);
      }
      return dict;
    }
    default:
      throw new Error(`unexpected plist element <${tag}>`);
  }
}
