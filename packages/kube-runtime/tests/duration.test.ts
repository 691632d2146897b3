import { describe, expect, it } from 'vitest';
import { ControllerConfigError } from '../src/errors.js';
import { parseDuration } from '../src/duration.js';

describe('parseDuration', () => {
  const valid: [string, number][] = [
    ['0', 0],
    ['15m', 900_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    ['1.5s', 1500],
  ];
  for (const [text, ms] of valid) it(`reads ${text} as ${ms} ms`, () => expect(parseDuration(text)).toBe(ms));
  for (const text of ['', 'soon', '15', '1x', '-1s', '1m junk']) {
    it(`rejects ${JSON.stringify(text)}`, () => expect(() => parseDuration(text)).toThrow(ControllerConfigError));
  }
});
