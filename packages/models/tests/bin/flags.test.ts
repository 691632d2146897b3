import { describe, expect, it } from 'vitest';
import { numberFlag, parseFlags, stringFlag } from '../../src/bin/flags.js';
import { ValidationError } from '../../src/errors.js';

class BadFlag extends ValidationError {
  override name = 'BadFlag';
}
const invalid = (message: string): BadFlag => new BadFlag(message);
const SPEC = { nodes: { type: 'string' }, spawn: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

describe('parseFlags', () => {
  it('reads string and boolean flags, short aliases, and the last of a repeated flag', () => {
    expect(parseFlags(['--nodes', '3', '--spawn', '-h', '--nodes=5'], SPEC, invalid)).toEqual({ nodes: '5', spawn: true, help: true });
  });

  it.each([
    [['--bogus'], /^Unknown option '--bogus'/],
    [['--nodes'], /^Option '--nodes <value>' argument missing/],
    [['stray'], /^Unexpected argument 'stray'/],
  ])('turns %j into the caller\'s error with parseArgs\' message', (argv, message) => {
    expect(() => parseFlags(argv, SPEC, invalid)).toThrow(BadFlag);
    expect(() => parseFlags(argv, SPEC, invalid)).toThrow(message);
  });
});

describe('numberFlag and stringFlag', () => {
  const values = parseFlags(['--nodes', '12'], SPEC, invalid);

  it('reads a number, and undefined when the flag is absent or a switch', () => {
    expect(numberFlag(values, 'nodes', invalid)).toBe(12);
    expect(numberFlag({}, 'nodes', invalid)).toBeUndefined();
    expect(numberFlag({ spawn: true }, 'spawn', invalid)).toBeUndefined();
    expect(stringFlag(values, 'nodes')).toBe('12');
    expect(stringFlag({ spawn: true }, 'spawn')).toBeUndefined();
  });

  it.each(['many', '', ' ', 'Infinity'])('refuses %j through the caller\'s error', (text) => {
    expect(() => numberFlag({ nodes: text }, 'nodes', invalid)).toThrow(new BadFlag(`--nodes must be a number, got ${JSON.stringify(text)}`));
  });
});
