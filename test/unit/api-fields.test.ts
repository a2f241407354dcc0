import { describe, expect, it } from 'vitest';
import {
  buildBody,
  buildQuery,
  fieldParser,
  parseKeyPath,
  resolveFields,
  typedValue,
  type FieldArg,
} from '../../src/cli/api-command/fields.js';
import { UsageError } from '../../src/cli/errors.js';

/** Parses flags in the order given, as commander would: [['-F', 'a=1'], ['-f', 'b=2']]. */
function args(...flags: [typed: boolean, arg: string][]): FieldArg[] {
  const typed = fieldParser(false);
  const raw = fieldParser(true);
  let t: FieldArg[] = [];
  let r: FieldArg[] = [];
  for (const [isTyped, arg] of flags) {
    if (isTyped) t = typed(arg, t);
    else r = raw(arg, r);
  }
  return [...t, ...r];
}

const noFiles = async (path: string): Promise<string> => {
  throw new Error(`unexpected read of ${path}`);
};

async function body(...flags: [boolean, string][]) {
  return buildBody(await resolveFields(args(...flags), noFiles));
}

describe('typedValue', () => {
  it.each([
    ['true', true],
    ['false', false],
    ['null', null],
    ['42', 42],
    ['-3.5', -3.5],
    ['1e3', 1000],
    ['0', 0],
  ])('%s is a JSON value', (text, value) => {
    expect(typedValue(text)).toStrictEqual(value);
  });

  it.each(['+15555550123', '0012', 'True', '', '12345678901234567890', '1.', 'NaN', ' 1'])(
    '%j stays text',
    (text) => {
      expect(typedValue(text)).toBe(text);
    },
  );
});

describe('fieldParser', () => {
  it('splits at the first = only', () => {
    expect(fieldParser(false)('q=a=b')).toMatchObject([{ key: 'q', text: 'a=b', raw: false }]);
  });

  it('accepts an empty value', () => {
    expect(fieldParser(true)('note=')).toMatchObject([{ key: 'note', text: '' }]);
  });

  it.each(['novalue', '=x'])('refuses %j', (arg) => {
    expect(() => fieldParser(false)(arg)).toThrow(UsageError);
  });
});

describe('parseKeyPath', () => {
  it('splits brackets into segments and marks [] as append', () => {
    expect(parseKeyPath('to')).toEqual(['to']);
    expect(parseKeyPath('to[phone]')).toEqual(['to', 'phone']);
    expect(parseKeyPath('a[b][c]')).toEqual(['a', 'b', 'c']);
    expect(parseKeyPath('tags[]')).toEqual(['tags', null]);
  });

  it.each(['[x]', 'a[b', 'a]b', 'a[][b]', 'a[b]c'])('refuses %j', (key) => {
    expect(() => parseKeyPath(key)).toThrow(UsageError);
  });
});

describe('buildBody', () => {
  it('types --field values and keeps --raw-field values as strings', async () => {
    expect(await body([true, 'n=5'], [true, 'ok=true'], [true, 'x=null'], [false, 'raw=5'], [false, 'flag=true'])).toEqual({
      n: 5,
      ok: true,
      x: null,
      raw: '5',
      flag: 'true',
    });
  });

  it('nests bracketed keys into objects', async () => {
    expect(await body([false, 'to[phone]=+15555550123'], [true, 'to[first_name]=Ada'], [false, 'body=hi'])).toEqual({
      to: { phone: '+15555550123', first_name: 'Ada' },
      body: 'hi',
    });
  });

  it('appends [] values in command-line order across both flags', async () => {
    expect(await body([true, 'ids[]=1'], [false, 'ids[]=2'], [true, 'ids[]=3'])).toEqual({ ids: [1, '2', 3] });
  });

  it('appends to arrays inside objects', async () => {
    expect(await body([false, 'a[b][]=x'], [false, 'a[b][]=y'], [false, 'a[c]=z'])).toEqual({ a: { b: ['x', 'y'], c: 'z' } });
  });

  it('refuses a key given twice', async () => {
    await expect(body([true, 'a=1'], [true, 'a=2'])).rejects.toThrow(/more than once/);
  });

  it('refuses a value and an object under one name, in either order', async () => {
    await expect(body([true, 'to=1'], [true, 'to[phone]=2'])).rejects.toThrow(/conflicts/);
    await expect(body([true, 'to[phone]=2'], [true, 'to=1'])).rejects.toThrow(/conflicts/);
    await expect(body([true, 'tags=1'], [true, 'tags[]=2'])).rejects.toThrow(/conflicts/);
  });

  it('keeps __proto__ as data', async () => {
    const result = await body([false, '__proto__[polluted]=yes']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(result)).toBe('{"__proto__":{"polluted":"yes"}}');
  });
});

describe('resolveFields', () => {
  it('reads @file (and @- for stdin) for typed fields only', async () => {
    const reads: string[] = [];
    const read = async (path: string) => {
      reads.push(path);
      return path === '-' ? 'from stdin\n' : `contents of ${path}`;
    };
    const fields = await resolveFields(args([true, 'body=@note.txt'], [true, 'extra=@-'], [false, 'literal=@x']), read);
    expect(buildBody(fields)).toEqual({ body: 'contents of note.txt', extra: 'from stdin\n', literal: '@x' });
    expect(reads).toEqual(['note.txt', '-']);
  });

  it('refuses two fields reading stdin', async () => {
    await expect(resolveFields(args([true, 'a=@-'], [true, 'b=@-']), noFiles)).rejects.toThrow(/stdin/);
  });
});

describe('buildQuery', () => {
  it('keeps names literal and values as given text', async () => {
    const fields = await resolveFields(args([true, 'page[limit]=10'], [true, 'after=2026-01-01'], [true, 'n=1e3']), noFiles);
    expect(buildQuery(fields)).toEqual({ 'page[limit]': '10', after: '2026-01-01', n: '1e3' });
  });

  it('repeats a repeated name and keeps parameters from the path first', async () => {
    const fields = await resolveFields(args([false, 'status=sent'], [false, 'status=failed']), noFiles);
    expect(buildQuery(fields, { status: 'queued', q: 'x' })).toEqual({ status: ['queued', 'sent', 'failed'], q: 'x' });
  });
});
