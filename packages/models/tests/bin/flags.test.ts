import { describe, expect, it } from 'vitest';
import { numberFlag, parseFlags, scanFlags, stringFlag } from '../../src/bin/flags.js';
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

describe('scanFlags', () => {
  const LEVEL = { datastore: { type: 'string' }, output: { type: 'string', short: 'o' }, version: { type: 'boolean', short: 'V' } } as const;

  it('reads the flags it knows wherever they stand and keeps words and other flags as typed, in order', () => {
    expect(scanFlags(['ipam', 'show', '--ip', '1.2.3.4', '--datastore', 'memory', '-ojson', '-V'], LEVEL)).toEqual([
      { kind: 'operand', text: 'ipam' },
      { kind: 'operand', text: 'show' },
      { kind: 'unknown', text: '--ip' },
      { kind: 'operand', text: '1.2.3.4' },
      { kind: 'flag', name: 'datastore', value: 'memory' },
      { kind: 'flag', name: 'output', value: 'json' },
      { kind: 'flag', name: 'version', value: true },
    ]);
  });

  it('keeps a group of unknown short flags and a switch given a value as typed, once each', () => {
    expect(scanFlags(['-xyz', '--version=1', '--bogus=y', '--datastore=etcd'], LEVEL)).toEqual([
      { kind: 'unknown', text: '-xyz' },
      { kind: 'unknown', text: '--version=1' },
      { kind: 'unknown', text: '--bogus=y' },
      { kind: 'flag', name: 'datastore', value: 'etcd' },
    ]);
  });

  it('takes the next argument as a value even when it starts with a dash, and reports a value the line lacks', () => {
    expect(scanFlags(['-o', '--version', '--datastore'], LEVEL)).toEqual([
      { kind: 'flag', name: 'output', value: '--version' },
      { kind: 'flag', name: 'datastore', value: undefined },
    ]);
  });

  it('hands back what follows -- untouched', () => {
    expect(scanFlags(['a', '--', '-V', 'b'], LEVEL)).toEqual([{ kind: 'operand', text: 'a' }, { kind: 'end', rest: ['-V', 'b'] }]);
  });
});
