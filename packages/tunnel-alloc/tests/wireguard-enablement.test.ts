import type { Node } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { wireguardEnabled, type WireguardOptions } from '../src/wireguard-enablement.js';

const keyed: Node = { name: 'n', wireguardPublicKey: 'k4=', wireguardPublicKeyV6: 'k6=' };
const v4Only: Node = { name: 'n', wireguardPublicKey: 'k4=' };
const bare: Node = { name: 'n' };
const emptyKey: Node = { name: 'n', wireguardPublicKey: '' };

describe('wireguardEnabled', () => {
  it.each<[string, Node, 4 | 6, WireguardOptions, boolean]>([
    ['infers IPv4 from the published IPv4 key', v4Only, 4, {}, true],
    ['does not infer IPv6 from an IPv4 key alone', v4Only, 6, {}, false],
    ['infers IPv6 from the published IPv6 key', keyed, 6, {}, true],
    ['treats an empty key as no key', emptyKey, 4, {}, false],
    ['is off without any key', bare, 4, {}, false],
    ['is off under host encryption even with a key', keyed, 4, { hostEncryptionEnabled: true }, false],
    ['is off for IPv6 under host encryption too', keyed, 6, { hostEncryptionEnabled: true }, false],
    ['an explicit enabled wins over a missing key', bare, 4, { ipv4: 'enabled' }, true],
    ['an explicit enabled wins over host encryption', bare, 6, { ipv6: 'enabled', hostEncryptionEnabled: true }, true],
    ['an explicit disabled wins over a published key', keyed, 4, { ipv4: 'disabled' }, false],
    ['a setting for one family leaves the other inferred', keyed, 6, { ipv4: 'disabled' }, true],
    ['an explicit infer behaves like no setting', keyed, 4, { ipv4: 'infer' }, true],
  ])('%s', (_name, node, version, options, expected) => {
    expect(wireguardEnabled(node, version, options)).toBe(expected);
  });
});
