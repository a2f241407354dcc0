/**
 * Numbers on the command line are read as a person writes them (commands/kit.ts decimal()):
 * `2`, `2.5`, `.5`; never as Number() also reads strings (hex, binary, exponents, Infinity,
 * an empty string as 0).
 */
import { describe, expect, it } from 'vitest';
import { decimal, portNumber, positiveInt, positiveNumber } from '../../src/cli/commands/kit.js';

describe('decimal', () => {
  it('reads decimal digits with or without a fraction', () => {
    expect([decimal('2'), decimal(' 10 '), decimal('2.5'), decimal('.5'), decimal('3.')]).toEqual([2, 10, 2.5, 0.5, 3]);
  });

  it('refuses what Number() alone would read as something else', () => {
    for (const given of ['0x10', '0b11', '0o7', '1e1', 'Infinity', '', ' ', '-1', '+2', '1_000']) expect(decimal(given), given).toBeNaN();
  });

  it('backs the flag parsers: --limit 0x10 is refused, --timeout .5 taken', () => {
    expect(() => positiveInt('0x10')).toThrow(/whole number ≥ 1/);
    expect(positiveNumber('.5')).toBe(0.5);
  });

  it('reads --port the one way for sandbox, login and events listen: 0 to 65535', () => {
    expect([portNumber('0'), portNumber('8080'), portNumber('65535')]).toEqual([0, 8080, 65535]);
    for (const given of ['65536', '-1', '1.5', '0x50', 'abc', '']) expect(() => portNumber(given), given).toThrow('Must be a port number from 0 to 65535.');
  });
});
