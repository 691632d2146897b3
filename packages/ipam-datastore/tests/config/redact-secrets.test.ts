import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { datastoreSecrets, redactSecrets } from '../../src/config/redact-secrets.js';

const CANARY = 'canary-7f3a9c';

describe('redactSecrets', () => {
  it.each([
    { what: 'a known value', text: `wrong password ${CANARY}`, known: [CANARY] },
    { what: 'URL user info', text: `connect http://root:${CANARY}@10.0.0.1:2379 refused`, known: [] },
    { what: 'a YAML excerpt', text: `bad indentation:\n    token: ${CANARY}\n  ^`, known: [] },
    { what: 'a JSON field', text: `{"password":"${CANARY}","user":"x"}`, known: [] },
    { what: 'client-key-data', text: `client-key-data: ${CANARY}`, known: [] },
    { what: 'an Authorization header', text: `Authorization: Bearer ${CANARY}`, known: [] },
    { what: 'a PEM private key', text: `-----BEGIN PRIVATE KEY-----\n${CANARY}\n-----END PRIVATE KEY-----`, known: [] },
  ])('removes $what', ({ text, known }) => {
    const out = redactSecrets(text, known);
    expect(out).not.toContain(CANARY);
    expect(out).toContain('[redacted]');
  });

  it('leaves text without credentials alone', () => {
    const text = 'etcd endpoint 1 of ETCD_ENDPOINTS is not a URL: "e1:2379"';
    expect(redactSecrets(text, ['ab'])).toBe(text);
  });
});

describe('datastoreSecrets', () => {
  it('collects the etcd password and the kubeconfig credentials, even from a malformed file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipamkit-secrets-'));
    try {
      const file = join(dir, 'kubeconfig');
      writeFileSync(file, `users:\n- name: u\n  user:\n    token: ${CANARY}-token\n   password: "${CANARY}-pw"\n  : : [\n`);
      expect(datastoreSecrets({ KUBECONFIG: file }, { etcdPassword: `${CANARY}-etcd` }).sort()).toEqual([`${CANARY}-etcd`, `${CANARY}-pw`, `${CANARY}-token`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('redactSecrets, skipping patterns whose fixed part is absent', () => {
  // The four patterns applied unconditionally, as before the skip: the skip must change no output.
  const KEYS = 'token|id-token|refresh-token|access-token|password|client-key-data|client-secret|secret';
  const everyPattern = (text: string): string =>
    text
      .replace(/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, '[redacted]')
      .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, '$1[redacted]@')
      .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, '$1 [redacted]')
      .replace(new RegExp(`(["']?\\b(?:${KEYS})["']?\\s*[:=]\\s*)("[^"]*"|'[^']*'|[^\\s,}\\]]+)`, 'gi'), '$1[redacted]');
  const FRAGMENTS = ['Token', 'PASSWORD', 'client-Key-Data', 'Secret', ': ', '=', '"', "'", 'Bearer ', 'Basic ', 'http://', 'u:p@', '@', '-----BEGIN EC PRIVATE KEY-----', '-----END EC PRIVATE KEY-----', 'abc', ' ', '\n', ',', '}'];

  it('gives what applying every pattern gives, for texts made of their parts', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 14 }), (parts) => {
        const text = parts.join('');
        return redactSecrets(text) === everyPattern(text);
      }),
      { numRuns: 2000 },
    );
  });
});
