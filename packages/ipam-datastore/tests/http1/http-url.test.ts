import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { atPath, formQuery, joinedTo, parseHttpUrl, type HttpUrl } from '../../src/http1/http-url.js';

const PARTS = ['protocol', 'host', 'hostname', 'port', 'pathname', 'search', 'hash', 'username', 'password'] as const;
const partsOf = (u: Record<(typeof PARTS)[number], string>): Record<string, string> => Object.fromEntries(PARTS.map((p) => [p, u[p]]));

/** What WHATWG parsing gives, or the error class it throws. */
function whatwg(href: string): Record<string, string> | 'throws' {
  try {
    return partsOf(new URL(href));
  } catch {
    return 'throws';
  }
}
function ours(href: string, split: (text: string) => HttpUrl = parseHttpUrl): Record<string, string> | 'throws' {
  try {
    return partsOf(split(href));
  } catch {
    return 'throws';
  }
}

describe('parseHttpUrl', () => {
  it.each([
    'http://127.0.0.1:2379',
    'http://127.0.0.1:2379/',
    'https://10.96.0.1:443',
    'https://kubernetes.default.svc',
    'https://api.example.com:6443/k8s/clusters/c-abc',
    'http://127.0.0.1:80/v3/kv/range',
    'http://h:8080/apis/crd.projectcalico.org/v1/ipamblocks?limit=500&labelSelector=a%3Db',
    'http://h:8080/x?',
    'http://h/.well-known/x',
    'http://h/a/./b',
    'http://h/a/../b',
    'http://h/%2e%2E/b',
    'http://HOST.example:1',
    'http://user:pw@h:1',
    'http://[::1]:2379',
    'http://127.1:2379',
    'http://1.2.3.04',
    'http://256.1.1.1',
    'http://h.0x10',
    'http://h:0',
    'http://h:00080',
    'http://h:65536',
    'http://h:443',
    'https://h:443',
    'http://h/a b',
    'http://h/a#frag',
    'http://h/a\\b',
    'http://xn--nxasmq6b.example',
    'http://xn--a.example',
    'http://-a.example',
    'ftp://h/x',
    'not a url',
    'http://',
  ])('%s gives the parts (or the error) new URL gives', (href) => {
    expect(ours(href)).toEqual(whatwg(href));
  });

  it('agrees with new URL on generated http(s) URLs, plain or not', () => {
    const label = fc.stringMatching(/^[a-zA-Z0-9-]{1,8}$/);
    const octet = fc.integer({ min: 0, max: 300 }).map(String);
    const host = fc.oneof(fc.array(label, { minLength: 1, maxLength: 4 }).map((l) => l.join('.')), fc.tuple(octet, octet, octet, octet).map((o) => o.join('.')), fc.constantFrom('[::1]', '127.1', '0x7f.1', 'h.', 'a..b', 'xn--a.b', 'xn--nxasmq6b.b'));
    const port = fc.option(fc.oneof(fc.integer({ min: 0, max: 70_000 }).map(String), fc.constantFrom('080', '80', '443', '')), { nil: undefined });
    const segment = fc.stringMatching(/^[A-Za-z0-9\-._~!$&'()*+,;=:@%. "<>[\]^|{}]{0,6}$/);
    const path = fc.array(segment, { maxLength: 4 }).map((s) => (s.length === 0 ? '' : `/${s.join('/')}`));
    const query = fc.option(fc.stringMatching(/^[A-Za-z0-9\-._~!$&'()*+,;=:@%/? "<>]{0,8}$/), { nil: undefined });
    const url = fc
      .tuple(fc.constantFrom('http:', 'https:', 'HTTP:'), host, port, path, query)
      .map(([s, h, p, pa, q]) => `${s}//${h}${p === undefined ? '' : `:${p}`}${pa}${q === undefined ? '' : `?${q}`}`);
    fc.assert(
      fc.property(url, (href) => {
        expect(ours(href)).toEqual(whatwg(href));
      }),
      { numRuns: 3000 },
    );
  });

  it('joinedTo(base)(target) gives what new URL gives for base + target, the base split once', () => {
    const label = fc.stringMatching(/^[a-zA-Z0-9-]{1,6}$/);
    const base = fc
      .tuple(
        fc.constantFrom('http://', 'https://', 'HTTP://'),
        fc.oneof(fc.array(label, { minLength: 1, maxLength: 3 }).map((l) => l.join('.')), fc.constantFrom('127.0.0.1', '[::1]', '10.0.0.256', 'xn--a.b')),
        fc.constantFrom('', ':6443', ':443', ':80', ':0', ':99999'),
        fc.constantFrom('', '/', '/k8s/clusters/c-1', '/a/./b', '/%2e', '/x?y=1'),
      )
      .map((p) => p.join(''));
    const segment = fc.stringMatching(/^[A-Za-z0-9\-._~!$&'()*+,;=:@%. "<>]{0,6}$/);
    const target = fc
      .tuple(fc.array(segment, { maxLength: 4 }).map((s) => (s.length === 0 ? '' : `/${s.join('/')}`)), fc.option(fc.stringMatching(/^[A-Za-z0-9\-._~!$&'()*+,;=:@%/? "<>]{0,8}$/), { nil: undefined }))
      .map(([p, q]) => `${p}${q === undefined ? '' : `?${q}`}`);
    fc.assert(
      fc.property(base, fc.array(target, { minLength: 1, maxLength: 3 }), (b, targets) => {
        const join = joinedTo(b);
        for (const t of targets) expect(ours(t, join)).toEqual(whatwg(b + t));
      }),
      { numRuns: 3000 },
    );
  });

  it('atPath puts an absolute path on the origin, as new URL(path, base) does', () => {
    for (const base of ['http://127.0.0.1:2379', 'https://etcd.example:2379/ignored', 'http://[::1]:2379']) {
      expect(partsOf(atPath(parseHttpUrl(base), '/v3/kv/txn'))).toEqual(partsOf(new URL('/v3/kv/txn', base)));
    }
  });
});

describe('formQuery', () => {
  it('writes what URLSearchParams writes, skipping undefined values', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.option(fc.string({ maxLength: 12, unit: 'binary' }), { nil: undefined })), (query) => {
        const params = new URLSearchParams();
        for (const [k, v] of Object.entries(query)) if (v !== undefined) params.append(k, v);
        expect(formQuery(query)).toBe(params.toString());
      }),
      { numRuns: 2000 },
    );
  });
});
