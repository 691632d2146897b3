import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { AFFINITY_HOSTNAME_HASH_LABEL, AFFINITY_IP_VERSION_LABEL, AFFINITY_TYPE_LABEL, affinityLabels } from '../../src/net/affinity-labels.js';
import { blockAffinityName } from '../../src/net/block-affinity-name.js';
import { cidrToName } from '../../src/net/cidr-to-name.js';
import { hostnameHashLabel } from '../../src/net/hostname-hash-label.js';

describe('cidrToName', () => {
  it.each([
    ['10.0.0.0/26', '10-0-0-0-26'],
    ['192.168.1.64/26', '192-168-1-64-26'],
    ['fd00::/122', 'fd00---122'],
    ['2001:db8:0:1::40/122', '2001-db8-0-1--40-122'],
  ])('encodes the design/calico-stored-formats.md#encoding-rules example %s as %s', (cidr, name) => {
    expect(cidrToName(cidr)).toBe(name);
  });

  it.each([
    ['10.0.0.7/26', '10-0-0-0-26'],
    ['FD00:0:0:0:0:0:0:0/122', 'fd00---122'],
    ['::ffff:10.0.0.0/122', '10-0-0-0-26'],
  ])('canonicalises %s before encoding', (cidr, name) => {
    expect(cidrToName(cidr)).toBe(name);
  });
});

describe('blockAffinityName', () => {
  it('joins host and CIDR name when short', () => {
    expect(blockAffinityName('node-a', '10.0.0.0/26')).toBe('node-a-10-0-0-0-26');
    expect(blockAffinityName('load-balancer', 'fd00::/122')).toBe('load-balancer-fd00---122');
  });

  it('shortens the 250-character host of design/calico-stored-formats.md#affinities to exactly 252 characters', () => {
    const host = 'a'.repeat(250);
    const suffix = createHash('sha256').update(`${host}+10-0-0-0-26`).digest('hex').slice(0, 11);
    const name = blockAffinityName(host, '10.0.0.0/26');
    expect(name).toBe(`${'a'.repeat(228)}-10-0-0-0-26-${suffix}`);
    // Golden suffix computed independently (Python hashlib) from sha256("a"*250 + "+10-0-0-0-26").
    expect(name).toBe(`${'a'.repeat(228)}-10-0-0-0-26-8f7e6ea6753`);
    expect(name.length).toBe(252);
  });

  it('shortens a name of exactly 253 characters and leaves 252 alone', () => {
    const cidrName = '10-0-0-0-26';
    const host253 = 'b'.repeat(253 - cidrName.length - 1);
    const host252 = 'b'.repeat(252 - cidrName.length - 1);
    expect(blockAffinityName(host252, '10.0.0.0/26')).toBe(`${host252}-${cidrName}`);
    const shortened = blockAffinityName(host253, '10.0.0.0/26');
    expect(shortened.length).toBe(252);
    expect(shortened.startsWith(`${'b'.repeat(228)}-${cidrName}-`)).toBe(true);
  });
});

describe('hostnameHashLabel', () => {
  it('matches the golden value of design/calico-stored-formats.md#affinities', () => {
    expect(hostnameHashLabel('node-a')).toBe('PY3TQE2E3XMTETLM2MJO3UITKPFB27YUJ4T4E5XGPEJON3SM4QAA');
  });

  it('is always 52 upper-case base32 characters without padding', () => {
    for (const host of ['', 'x', 'a'.repeat(300), 'node-b.example.com']) {
      expect(hostnameHashLabel(host)).toMatch(/^[A-Z2-7]{52}$/);
    }
  });
});

describe('affinityLabels', () => {
  it('stamps hostname hash, type verbatim and IP version', () => {
    expect(affinityLabels({ host: 'node-a', type: 'host', cidr: '10.0.0.0/26' })).toEqual({
      [AFFINITY_HOSTNAME_HASH_LABEL]: 'PY3TQE2E3XMTETLM2MJO3UITKPFB27YUJ4T4E5XGPEJON3SM4QAA',
      [AFFINITY_TYPE_LABEL]: 'host',
      [AFFINITY_IP_VERSION_LABEL]: '4',
    });
    expect(affinityLabels({ host: 'node-a', type: '', cidr: 'fd00::/122' })).toEqual({
      'projectcalico.org/hostname-hash': 'PY3TQE2E3XMTETLM2MJO3UITKPFB27YUJ4T4E5XGPEJON3SM4QAA',
      'projectcalico.org/affinity-type': '',
      'projectcalico.org/ip-version': '6',
    });
  });
});
