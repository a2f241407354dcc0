import { describe, expect, it } from 'vitest';
import { bindTemplate, parseTemplate } from '../../src/cli/send/template.js';
import { UsageError } from '../../src/cli/errors.js';

const headers = ['First Name', 'time', 'Clinic-Name', 'first_name_alt'];
const bind = (source: string, cols: string[] = headers) => bindTemplate(parseTemplate(source), cols);

describe('parseTemplate', () => {
  it('splits text and placeholders, trimming names', () => {
    expect(parseTemplate('Hi { first_name }, at {time}.')).toEqual([
      { kind: 'text', text: 'Hi ' },
      { kind: 'placeholder', name: 'first_name' },
      { kind: 'text', text: ', at ' },
      { kind: 'placeholder', name: 'time' },
      { kind: 'text', text: '.' },
    ]);
  });

  it('reads {{ and }} as literal braces', () => {
    expect(parseTemplate('{{not}} a {x}}}')).toEqual([
      { kind: 'text', text: '{not} a ' },
      { kind: 'placeholder', name: 'x' },
      { kind: 'text', text: '}' },
    ]);
  });

  it.each([
    ['Hi {first_name', /never closed/],
    ['Hi {a {b}', /never closed/],
    ['Hi }', /closes no placeholder/],
    ['Hi {}', /empty placeholder/],
    ['Hi {  }', /empty placeholder/],
  ])('refuses %j', (source, message) => {
    expect(() => parseTemplate(source)).toThrow(UsageError);
    expect(() => parseTemplate(source)).toThrow(message);
  });
});

describe('bindTemplate', () => {
  it('matches exactly first, then ignoring case and punctuation', () => {
    const t = bind('Hi {first_name} at {TIME} ({clinic name})');
    expect(t.columns).toEqual(['First Name', 'time', 'Clinic-Name']);
    expect(t.render({ 'First Name': 'Ada', time: '9:00', 'Clinic-Name': 'Riverside' })).toEqual({
      ok: true,
      body: 'Hi Ada at 9:00 (Riverside)',
    });
  });

  it('prefers the exact column over a loose match', () => {
    const t = bind('{Time}', ['time', 'Time']);
    expect(t.render({ time: 'lower', Time: 'Upper' })).toEqual({ ok: true, body: 'Upper' });
  });

  it('refuses a placeholder with no column, naming it and the columns', () => {
    let error: unknown;
    try {
      bind('Hi {first_name}, {room} and {doctor}');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(/\{room\} has no such column; \{doctor\} has no such column/);
    expect((error as UsageError).hints.join('\n')).toMatch(/"First Name", "time"/);
  });

  it('refuses a loose match that fits several columns', () => {
    expect(() => bind('{first name}', ['First-Name', 'Phone', 'FIRST NAME'])).toThrow(/matches several columns/);
  });

  it('reports every empty value of a row, once per placeholder', () => {
    const t = bind('{first_name} {time} {first_name}');
    expect(t.render({ 'First Name': '', time: '  ' })).toEqual({
      ok: false,
      problems: ['{first_name} is empty (column "First Name")', '{time} is empty (column "time")'],
    });
  });

  it('renders a template without placeholders as is', () => {
    expect(bind('Office closed {{today}}').render({})).toEqual({ ok: true, body: 'Office closed {today}' });
  });
});
