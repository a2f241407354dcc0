/** The answer checker (src/cli/api/answer-shape.ts): what it accepts, and the words for what it does not. */
import { describe, expect, it } from 'vitest';
import { listOf, nested, optionalListOf, optionalNested, shapeProblem, type Fields } from '../../src/cli/api/answer-shape.js';
import * as shapes from '../../src/cli/api/shapes.js';

const fields: Fields = {
  id: 'string',
  count: 'number',
  note: 'string?',
  tags: 'array',
  owner: nested({ id: 'string', name: 'string' }),
  delivery: optionalNested({ status: 'string', error: optionalNested({ code: 'string' }) }),
};
const good = { id: 'a', count: 0, note: null, tags: [], owner: { id: 'o', name: '' }, delivery: null, extra: { anything: true } };

describe('shapeProblem', () => {
  it('accepts the shape, with unknown fields, nulls and absences where `?` allows them', () => {
    expect(shapeProblem(good, fields)).toBeNull();
    const { note: _note, delivery: _delivery, ...without } = good;
    expect(shapeProblem(without, fields)).toBeNull();
    expect(shapeProblem({ ...good, delivery: { status: 'sent', error: null } }, fields)).toBeNull();
  });

  it('names the first wrong field by its path and says what it is instead', () => {
    expect(shapeProblem({ ...good, id: undefined }, fields)).toBe('"id" is missing');
    expect(shapeProblem({ ...good, id: null }, fields)).toBe('"id" is null');
    expect(shapeProblem({ ...good, count: '3' }, fields)).toBe('"count" is a string, not a number');
    expect(shapeProblem({ ...good, note: 5 }, fields)).toBe('"note" is a number, not a string');
    expect(shapeProblem({ ...good, tags: {} }, fields)).toBe('"tags" is an object, not an array');
    expect(shapeProblem({ ...good, owner: { id: 'o' } }, fields)).toBe('"owner.name" is missing');
    expect(shapeProblem({ ...good, owner: [] }, fields)).toBe('"owner" is an array, not an object');
    expect(shapeProblem({ ...good, delivery: { status: 'x', error: { code: 1 } } }, fields)).toBe('"delivery.error.code" is a number, not a string');
  });

  it('lists of objects: each element checked, named by its index', () => {
    const listed: Fields = { items: listOf({ id: 'string' }), extras: optionalListOf({ n: 'number' }) };
    expect(shapeProblem({ items: [{ id: 'a' }, { id: 'b' }] }, listed)).toBeNull();
    expect(shapeProblem({ items: [], extras: null }, listed)).toBeNull();
    expect(shapeProblem({ items: [{ id: 'a' }, {}] }, listed)).toBe('"items[1].id" is missing');
    expect(shapeProblem({ items: [{ id: 'a' }, null] }, listed)).toBe('"items[1]" is null, not an object');
    expect(shapeProblem({ items: { id: 'a' } }, listed)).toBe('"items" is an object, not an array');
    expect(shapeProblem({ items: [], extras: [{ n: '1' }] }, listed)).toBe('"extras[0].n" is a string, not a number');
    expect(shapeProblem({}, listed)).toBe('"items" is missing');
  });

  it('an answer that is not an object at all', () => {
    expect(shapeProblem(null, fields)).toBe('it is null, not an object');
    expect(shapeProblem([good], fields)).toBe('it is an array, not an object');
    expect(shapeProblem('text', fields)).toBe('it is a string, not an object');
  });

  it('a field inherited from Object.prototype is not a field of the answer', () => {
    expect(shapeProblem({ ...good, owner: { id: 'o', name: 'n' } }, { constructor: 'object', toString: 'string?' } as Fields)).toBe('"constructor" is missing');
  });

  it('every shape names what it is and checks at least an id or its members', () => {
    for (const [name, shape] of Object.entries(shapes)) {
      expect(shape.name, name).toMatch(/^(a|an|the) /);
      expect(Object.keys(shape.fields).length, name).toBeGreaterThan(0);
      expect(shapeProblem({}, shape.fields), name).toMatch(/is missing$/);
    }
  });
});
