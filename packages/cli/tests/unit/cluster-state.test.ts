import { describe, expect, it } from 'vitest';
import { parseClusterState } from '../../src/check/cluster-state.js';

describe('parseClusterState', () => {
  it('reads pods and services', () => {
    expect(
      parseClusterState('{"pods":[{"namespace":"n","name":"p","phase":"Running","ips":["10.0.0.1"]}],"services":[{"namespace":"n","name":"s","ingressIPs":["1.2.3.4"]}]}', 'f'),
    ).toEqual({
      pods: [{ namespace: 'n', name: 'p', phase: 'Running', ips: ['10.0.0.1'] }],
      services: [{ namespace: 'n', name: 's', ingressIPs: ['1.2.3.4'] }],
    });
  });

  it('treats absent lists as unknown', () => {
    expect(parseClusterState('{}', 'f')).toEqual({});
  });

  it.each([
    ['{"pods":{}}', 'f: "pods" must be an array'],
    ['{"pods":[{"name":"p"}]}', 'f: pods[0] needs string "namespace" and "name"'],
    ['{"pods":[{"namespace":"n","name":"p","ips":"10.0.0.1"}]}', 'f: pods[0].ips must be an array of strings'],
    ['{"services":[{"namespace":"n","name":"s","ingressIPs":[1]}]}', 'f: services[0].ingressIPs must be an array of strings'],
  ])('refuses %s', (text, message) => {
    expect(() => parseClusterState(text, 'f')).toThrow(message);
  });
});
