import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { matchesLabels, parseLabelSelector } from '../../src/kube-api-server/label-selector.js';

const LABELS = { app: 'web', tier: 'front', 'projectcalico.org/ip-version': '4', empty: '' };

describe('parseLabelSelector and matchesLabels', () => {
  it.each([
    { selector: '', matches: true },
    { selector: 'app=web', matches: true },
    { selector: 'app==web', matches: true },
    { selector: 'app=db', matches: false },
    { selector: 'app!=db', matches: true },
    { selector: 'missing!=x', matches: true },
    { selector: 'app!=web', matches: false },
    { selector: 'tier in (front, back)', matches: true },
    { selector: 'tier in (back)', matches: false },
    { selector: 'tier notin (back)', matches: true },
    { selector: 'missing notin (back)', matches: true },
    { selector: 'tier notin (front)', matches: false },
    { selector: 'app', matches: true },
    { selector: 'missing', matches: false },
    { selector: '!missing', matches: true },
    { selector: '!app', matches: false },
    { selector: 'empty', matches: true },
    { selector: 'empty=', matches: true },
    { selector: 'projectcalico.org/ip-version=4,app=web', matches: true },
    { selector: 'projectcalico.org/ip-version=4,app=db', matches: false },
    { selector: '!projectcalico.org/affinity-type', matches: true },
  ])('evaluates $selector against the labels as Kubernetes does: $matches', ({ selector, matches }) => {
    expect(matchesLabels(parseLabelSelector(selector), LABELS)).toBe(matches);
  });

  it.each(['app=(', 'tier in front', 'a b', '=x', 'app in (x'])('rejects the malformed selector %s', (selector) => {
    expect(() => parseLabelSelector(selector)).toThrow(/label selector/);
  });

  it('matches an equality selector exactly when the label has that value', () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/);
    fc.assert(
      fc.property(word, word, fc.option(word, { nil: undefined }), (key, value, stored) => {
        const labels = stored === undefined ? {} : { [key]: stored };
        expect(matchesLabels(parseLabelSelector(`${key}=${value}`), labels)).toBe(stored === value);
        expect(matchesLabels(parseLabelSelector(`${key}!=${value}`), labels)).toBe(stored !== value);
      }),
    );
  });
});
