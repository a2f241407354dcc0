import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { jsonLinesInPlace, splitListBody } from '../../src/cli/api/json-page.js';

const tricky = [
  { id: 'a', body: 'quote " backslash \\ end\\', nested: { list: [1, [2, { x: '}' }]], s: ']' } },
  { id: 'b', body: 'emoji 🙏 and é and \u2028 and \n newline escaped', data: [{ data: '{"fake":1}' }] },
  { id: 'c', body: '\\"', n: -1.5e3, t: true, f: false, z: null },
  { id: 'd', body: '', empty: {}, arr: [] },
];

function linesOf(text: string): unknown[] {
  const body = Buffer.from(text);
  const split = splitListBody(body);
  expect(split).not.toBeNull();
  const out = jsonLinesInPlace(body, split!.records).toString('utf8');
  expect(out.endsWith('\n') || out === '').toBe(true);
  return out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

describe('splitListBody', () => {
  it('cuts compact records exactly as JSON.stringify wrote them', () => {
    const text = JSON.stringify({ data: tricky, pagination: { next_cursor: 'abc', has_more: true } });
    const body = Buffer.from(text);
    const split = splitListBody(body)!;
    expect(split.records.map(([s, e]) => body.toString('utf8', s, e))).toEqual(tricky.map((r) => JSON.stringify(r)));
    expect(split.rest).toEqual({ pagination: { next_cursor: 'abc', has_more: true } });
  });

  it('puts each pretty-printed record on one line', () => {
    const text = JSON.stringify({ pagination: { next_cursor: null, has_more: false }, data: tricky }, null, 2);
    expect(linesOf(text)).toEqual(tricky);
    const body = Buffer.from(text);
    const out = jsonLinesInPlace(body, splitListBody(body)!.records).toString();
    expect(out.split('\n').filter(Boolean)).toHaveLength(tricky.length);
  });

  it('handles CRLF whitespace and an empty page', () => {
    expect(linesOf('{\r\n"data": [\r\n{"id":\r\n"x"}\r\n],\r\n"pagination": {"next_cursor": null, "has_more": false}\r\n}\r\n')).toEqual([{ id: 'x' }]);
    expect(linesOf('{"data":[],"pagination":{"next_cursor":null,"has_more":false}}')).toEqual([]);
  });

  it('makes compact records into exactly the lines JSON.stringify would print, and honours a cut', () => {
    const body = Buffer.from(JSON.stringify({ data: tricky, pagination: { next_cursor: null, has_more: false } }));
    const records = splitListBody(body)!.records;
    expect(jsonLinesInPlace(body, records.slice(0, 2)).toString()).toBe(tricky.slice(0, 2).map((r) => JSON.stringify(r) + '\n').join(''));
  });

  it('refuses what is not a list body, so the caller can fall back to JSON.parse', () => {
    for (const bad of ['', '[]', '{}', '{"data":[1,2]}', '{"data":[{"a":1}', '{"data":[{"a":"x}]}', '{"data":[{}]} trailing', 'null', '{"data":[{"a":"x\\', '{"data":[{"a":"x\\"}]}']) {
      expect(splitListBody(Buffer.from(bad)), bad).toBeNull();
    }
  });

  it('cuts every record of random bodies as JSON.parse reads them (quotes, backslashes and brackets inside strings)', () => {
    // A fixed-seed generator: the same 5,000 bodies every run.
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
    const chars = ['a', '"', '\\', '{', '}', '[', ']', ',', ':', ' ', '\n', 'é', '🙏', 'u', '0'];
    const text = () => Array.from({ length: Math.floor(random() * 8) }, () => pick(chars)).join('');
    const value = (depth: number): unknown => {
      const r = random();
      if (depth > 3 || r < 0.4) return text();
      if (r < 0.5) return Math.floor(random() * 100) - 50;
      if (r < 0.6) return r < 0.55 ? null : true;
      if (r < 0.8) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, () => [text(), value(depth + 1)]));
    };
    let checked = 0;
    const wrong: unknown[] = [];
    for (let i = 0; i < 5000; i++) {
      const data = Array.from({ length: Math.floor(random() * 4) }, () =>
        Object.fromEntries([['id', text()], ...Array.from({ length: Math.floor(random() * 4) }, () => [text(), value(0)])]),
      );
      // A top-level member besides data and pagination, with a string key and value (never "data").
      const extra = { [`x${text()}`]: text() };
      const page = { data, ...extra, pagination: { next_cursor: text(), has_more: random() < 0.5 } };
      const body = Buffer.from(JSON.stringify(page, null, random() < 0.3 ? 2 : undefined));
      const split = splitListBody(body);
      // Node's own deep comparison per body, one expect for them all: expect().toEqual on 10,000
      // values was most of this file's time (1.2-2.0 s a run before, 0.8-1.0 s after).
      const records = split?.records.map(([s, e]) => JSON.parse(body.toString('utf8', s, e)));
      if (!split || !isDeepStrictEqual(records, data) || !isDeepStrictEqual(split.rest, { ...extra, pagination: page.pagination })) {
        wrong.push({ body: body.toString(), records, rest: split?.rest });
      }
      checked += data.length;
    }
    expect(wrong.slice(0, 3)).toEqual([]);
    expect(checked).toBeGreaterThan(5000);
  });
});
