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
});
