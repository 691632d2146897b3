import { describe, expect, it } from 'vitest';
import { CniEnvironmentError } from '../../src/index.js';
import { parseCniArgs } from '../../src/config/cni-args.js';

describe('parseCniArgs', () => {
  it.each([
    { text: '', expected: { ignoreUnknown: false, podNamespace: '', podName: '', testNamespace: 'default' } },
    { text: 'IgnoreUnknown=1;K8S_POD_NAMESPACE=ns;K8S_POD_NAME=web;K8S_POD_INFRA_CONTAINER_ID=abc', expected: { ignoreUnknown: true, podNamespace: 'ns', podName: 'web', testNamespace: 'default' } },
    { text: 'IgnoreUnknown=TRUE;Foo=bar', expected: { ignoreUnknown: true, podNamespace: '', podName: '', testNamespace: 'default' } },
    { text: 'K8S_POD_NAMESPACE=ns;K8S_POD_NAME=web', expected: { ignoreUnknown: false, podNamespace: 'ns', podName: 'web', testNamespace: 'default' } },
    { text: 'IP=10.0.0.5;CNI_TEST_NAMESPACE=t', expected: { ignoreUnknown: false, podNamespace: '', podName: '', testNamespace: 't', ip: '10.0.0.5' } },
    { text: 'IP=fd00:0::1', expected: { ignoreUnknown: false, podNamespace: '', podName: '', testNamespace: 'default', ip: 'fd00::1' } },
  ])('reads $text', ({ text, expected }) => {
    expect(parseCniArgs(text)).toEqual(expected);
  });

  it.each([
    { text: 'A=b=c', msg: 'ARGS: invalid pair "A=b=c"' },
    { text: 'K8S_POD_NAME', msg: 'ARGS: invalid pair "K8S_POD_NAME"' },
    { text: 'Foo=bar', msg: 'ARGS: unknown args ["Foo=bar"]' },
    { text: 'IgnoreUnknown=0;Foo=bar', msg: 'ARGS: unknown args ["Foo=bar"]' },
    { text: 'IgnoreUnknown=x', msg: 'ARGS: error parsing value of pair "IgnoreUnknown=x": boolean unmarshal error: invalid input x' },
    { text: 'IP=10.0.0.300', msg: 'ARGS: error parsing value of pair "IP=10.0.0.300": invalid IP address: 10.0.0.300' },
  ])('rejects $text with code 4', ({ text, msg }) => {
    expect(() => parseCniArgs(text)).toThrow(msg);
    expect(() => parseCniArgs(text)).toThrow(CniEnvironmentError);
  });
});
