import { describe, expect, it } from 'vitest';
import { parseCniArgs } from '../../src/config/cni-args.js';
import { readCniEnv } from '../../src/config/cni-env.js';
import { echoInput, MAX_ECHO } from '../../src/config/input-limits.js';
import { parseNetConf } from '../../src/config/net-config.js';
import { determineNodeName } from '../../src/config/node-name.js';
import { CniError } from '../../src/errors.js';
import { addressAnnotation, familiesAnnotation, poolAnnotation } from '../../src/request/annotations.js';

const HUGE = 'x'.repeat(1_000_000);
const conf = (extra: Record<string, unknown>) => JSON.stringify({ cniVersion: '1.0.0', name: 'net', ipam: { type: 'calico-ipam' }, ...extra });
const ADD = { CNI_COMMAND: 'ADD', CNI_CONTAINERID: 'c1', CNI_NETNS: '/x', CNI_IFNAME: 'eth0', CNI_PATH: '/x' };

function failure(run: () => unknown): CniError {
  try {
    run();
  } catch (err) {
    if (err instanceof CniError) return err;
    throw err;
  }
  throw new Error('expected a CNI error');
}

/** The longest run of the filler character: how much of the input the text repeats. */
function echoed(text: string, filler = 'x'): number {
  return Math.max(0, ...(text.match(new RegExp(`${filler}+`, 'g')) ?? []).map((m) => m.length));
}

describe('echoInput', () => {
  it('keeps short inputs whole and cuts long ones to 256 characters, saying how long they were', () => {
    expect(echoInput('eth0')).toBe('eth0');
    expect(echoInput('x'.repeat(MAX_ECHO))).toBe('x'.repeat(256));
    expect(echoInput('x'.repeat(300))).toBe(`${'x'.repeat(256)}… (300 characters)`);
  });
});

describe('inputs longer than their limits are code 7 and quoted cut', () => {
  it.each([
    { case: 'a 1 MB network name', run: () => parseNetConf(conf({ name: HUGE })), msg: 'failed to load netconf: name is longer than 253 characters' },
    { case: 'a 1 MB cniVersion', run: () => parseNetConf(conf({ cniVersion: HUGE })), msg: 'failed to load netconf: cniVersion is longer than 16 characters' },
    { case: 'a 1 MB cniVersions entry', run: () => parseNetConf(conf({ cniVersion: undefined, cniVersions: [HUGE] })), msg: 'failed to load netconf: cniVersions[0] is longer than 16 characters' },
    { case: 'a 1 MB nodename', run: () => parseNetConf(conf({ nodename: HUGE })), msg: 'failed to load netconf: nodename is longer than 253 characters' },
    { case: 'a 1 MB pool entry', run: () => parseNetConf(conf({ ipam: { ipv4_pools: [HUGE] } })), msg: 'failed to load netconf: ipam.ipv4_pools[0] is longer than 253 characters' },
    { case: 'a 1 MB lock path', run: () => parseNetConf(conf({ ipam_lock_file: HUGE })), msg: 'failed to load netconf: ipam_lock_file is longer than 4095 characters' },
    { case: 'a 1 MB datastore_type', run: () => parseNetConf(conf({ datastore_type: HUGE })), msg: 'failed to load netconf: datastore_type is longer than 4096 characters' },
    { case: 'a 1 MB node name from the nodename file', run: () => determineNodeName({ hostname: HUGE, nodenameFile: '/nonexistent' }), msg: 'the node name is longer than 253 characters' },
    { case: 'a 1 MB K8S_POD_NAME', run: () => parseCniArgs(`K8S_POD_NAMESPACE=ns;K8S_POD_NAME=${'x'.repeat(5000)}`), msg: 'CNI_ARGS K8S_POD_NAME is longer than 253 characters' },
    { case: 'a 1 MB namespace', run: () => parseCniArgs(`K8S_POD_NAMESPACE=${'x'.repeat(5000)};K8S_POD_NAME=p`), msg: 'CNI_ARGS K8S_POD_NAMESPACE is longer than 63 characters' },
    { case: 'a 1 MB container ID', run: () => readCniEnv({ ...ADD, CNI_CONTAINERID: HUGE }), msg: 'CNI_CONTAINERID is longer than 253 characters' },
    { case: 'a 1 MB CNI_ARGS', run: () => readCniEnv({ ...ADD, CNI_ARGS: HUGE }), msg: 'CNI_ARGS is longer than 8192 characters' },
    { case: 'a 1 MB ipAddrs annotation', run: () => addressAnnotation({ 'cni.projectcalico.org/ipAddrs': HUGE }, 'cni.projectcalico.org/ipAddrs'), msg: 'annotation "cni.projectcalico.org/ipAddrs" is longer than 4096 characters' },
    { case: 'a 1 MB ipv4pools annotation', run: () => poolAnnotation({ 'cni.projectcalico.org/ipv4pools': HUGE }, 'cni.projectcalico.org/ipv4pools'), msg: 'annotation "cni.projectcalico.org/ipv4pools" is longer than 4096 characters' },
    { case: 'a 1 MB ipFamilies annotation', run: () => familiesAnnotation({ 'cni.projectcalico.org/ipFamilies': HUGE }), msg: 'annotation "cni.projectcalico.org/ipFamilies" is longer than 4096 characters' },
  ])('$case', ({ run, msg }) => {
    const err = failure(run);
    expect(err.code).toBe(7);
    expect(err.message.startsWith(`${msg}: "`)).toBe(true);
    expect(echoed(err.message)).toBe(256);
    expect(err.message.length).toBeLessThan(400);
  });

  it('never quotes a secret, however long', () => {
    const err = failure(() => parseNetConf(conf({ policy: { k8s_auth_token: 'x'.repeat(70_000) } })));
    expect(err).toMatchObject({ code: 7, message: 'failed to load netconf: policy.k8s_auth_token is longer than 65536 characters' });
  });

  it('refuses a namespace one character over the DNS-label limit', () => {
    expect(failure(() => parseCniArgs(`K8S_POD_NAMESPACE=${'s'.repeat(64)};K8S_POD_NAME=p`))).toMatchObject({ code: 7, message: `CNI_ARGS K8S_POD_NAMESPACE is longer than 63 characters: "${'s'.repeat(64)}"` });
  });

  it('accepts values at their limits', () => {
    const n = 'n'.repeat(253);
    expect(parseNetConf(conf({ name: n, nodename: n })).name).toBe(n);
    expect(parseCniArgs(`K8S_POD_NAMESPACE=${'s'.repeat(63)};K8S_POD_NAME=${n}`).podName).toBe(n);
    expect(readCniEnv({ ...ADD, CNI_CONTAINERID: 'c'.repeat(253) })?.containerId).toHaveLength(253);
  });

  it.each([
    { case: 'an unknown CNI_COMMAND', run: () => readCniEnv({ ...ADD, CNI_COMMAND: HUGE }), code: 4 },
    { case: 'a bad IgnoreUnknown', run: () => parseCniArgs(`IgnoreUnknown=${'x'.repeat(250)}`), code: 4 },
    { case: 'an unknown CNI_ARGS key', run: () => parseCniArgs(`${'x'.repeat(5000)}=1`), code: 4 },
    { case: 'an unparsable annotation', run: () => poolAnnotation({ k: `[${'x'.repeat(4000)}` }, 'k'), code: 7 },
    { case: 'a bad address in an annotation', run: () => addressAnnotation({ k: JSON.stringify(['x'.repeat(250)]) }, 'k'), code: 7 },
    { case: 'a bad gateway', run: () => parseNetConf(conf({ ipam: { gateways: ['x'.repeat(253)] } })), code: 7 },
  ])('quotes at most 256 characters of $case', ({ run, code }) => {
    const err = failure(run);
    expect(err.code).toBe(code);
    expect(echoed(`${err.message} ${err.details}`)).toBeLessThanOrEqual(256);
    expect(echoed(err.message)).toBeGreaterThan(0);
  });

  it('bounds ipam.timeout_seconds', () => {
    expect(parseNetConf(conf({ ipam: { timeout_seconds: 5 } })).ipam.timeoutSeconds).toBe(5);
    expect(failure(() => parseNetConf(conf({ ipam: { timeout_seconds: 0 } })))).toMatchObject({ code: 7, message: 'failed to load netconf: ipam.timeout_seconds must be more than 0 and at most 3600' });
    expect(failure(() => parseNetConf(conf({ ipam: { timeout_seconds: '5' } })))).toMatchObject({ code: 7, message: 'failed to load netconf: ipam.timeout_seconds must be a number' });
  });
});
