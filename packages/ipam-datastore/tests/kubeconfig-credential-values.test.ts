import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CREDENTIAL_KEY_NAMES, credentialValuesIn } from '../src/config/kubeconfig-credential-values.js';

/** The expression the scan replaces (design/ipam-datastore.md, "Configuration"): the reference it must answer as. */
const REFERENCE = new RegExp(`\\b(?:${CREDENTIAL_KEY_NAMES.join('|')})["']?\\s*:\\s*["']?([^\\s"']+)`, 'gi');

const byReference = (text: string): string[] => [...text.matchAll(REFERENCE)].map((m) => m[1] ?? '');

/** Pieces of kubeconfig-like text: the keys in any case, near misses, quotes, colons, every kind of white space. */
const piece = fc.oneof(
  fc.constantFrom(...CREDENTIAL_KEY_NAMES),
  fc.constantFrom(...CREDENTIAL_KEY_NAMES).map((k) => k.toUpperCase()),
  fc.constantFrom('Token', 'ToKeN', 'tokens', 'xtoken', '_token', 'id-Token', 'secretName', 'client-key', 'passwd', 'ſecret', 'toKen\u0130'),
  fc.constantFrom(':', ': ', ' :', '":', "':", '"', "'", ' ', '\t', '\n', '\r\n', '\u00a0', '\u2028', '\ufeff', '\u3000', '-', '_', '.', ',', '}', '{', '[', '='),
  fc.string({ unit: fc.constantFrom(...'abcXYZ019-_/+=.'.split('')), minLength: 1, maxLength: 12 }),
  fc.constantFrom('abc123', 'ZXlKaGJHY2lPaUpTVXpJMU5pSXNJbXRwWkNJNklp', 'p@ss:word', 'é', '\ud83d\ude00', ''),
);
/** A key, a separator and a value, as a kubeconfig or a JSON body writes them (and near misses of it). */
const field = fc
  .tuple(
    fc.constantFrom(...CREDENTIAL_KEY_NAMES).chain((k) => fc.constantFrom(k, k.toUpperCase(), `${k.slice(0, 1).toUpperCase()}${k.slice(1)}`)),
    fc.constantFrom(':', ': ', '":"', "': '", ' : ', '"  :\t\'', ':\n  ', ':"', '=', ''),
    fc.string({ unit: fc.constantFrom(...'abcXYZ019-_/+=.@:é'.split('')), maxLength: 16 }),
  )
  .map(([k, sep, v]) => `${k}${sep}${v}`);
const text = fc.array(fc.oneof({ arbitrary: piece, weight: 3 }, { arbitrary: field, weight: 1 }), { maxLength: 40 }).map((p) => p.join(''));

describe('credentialValuesIn', () => {
  it('finds exactly the values the case-insensitive expression finds, in order', () => {
    let withValues = 0;
    fc.assert(
      fc.property(text, (t) => {
        const expected = byReference(t);
        if (expected.length > 0) withValues += 1;
        expect(credentialValuesIn(t)).toStrictEqual(expected);
      }),
      { numRuns: 20000 },
    );
    expect(withValues).toBeGreaterThan(2000);
  });

  it.each([
    ['users:\n- name: u\n  user:\n    token: abc.def\n', ['abc.def']],
    ['{"password": "hunter22", "Client-Secret":\'s3\'}', ['hunter22', 's3']],
    ['client-key-data: LS0tLS1CRUdJTg==\nid-token:x y', ['LS0tLS1CRUdJTg==', 'x']],
    ['tokens: no\nxtoken: no\nsecretName: no\ntoken: ""\n', []],
    ['token:a token: b', ['a', 'b']],
  ])('%j → %j', (t, expected) => {
    expect(credentialValuesIn(t)).toStrictEqual(expected);
  });
});
