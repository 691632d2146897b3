import { describe, expect, it } from 'vitest';
import { readCniEnv } from '../../src/config/cni-env.js';

const ADD = { CNI_COMMAND: 'ADD', CNI_CONTAINERID: 'abc', CNI_NETNS: '/ns', CNI_IFNAME: 'eth0', CNI_PATH: '/bin' };

describe('readCniEnv', () => {
  it('returns undefined when CNI_COMMAND is unset', () => {
    expect(readCniEnv({})).toBeUndefined();
  });

  it('reads a complete ADD environment', () => {
    expect(readCniEnv({ ...ADD, CNI_ARGS: 'A=b' })).toEqual({ command: 'ADD', containerId: 'abc', ifname: 'eth0', args: 'A=b' });
  });

  it.each([
    { env: { CNI_COMMAND: 'DEL', CNI_CONTAINERID: 'abc', CNI_IFNAME: 'eth0', CNI_PATH: '/bin' }, command: 'DEL' },
    { env: { CNI_COMMAND: 'GC', CNI_PATH: '/bin' }, command: 'GC' },
    { env: { CNI_COMMAND: 'STATUS', CNI_PATH: '/bin' }, command: 'STATUS' },
    { env: { CNI_COMMAND: 'VERSION' }, command: 'VERSION' },
  ])('needs only what $command needs', ({ env, command }) => {
    expect(readCniEnv(env)?.command).toBe(command);
  });

  it.each([
    { env: { CNI_COMMAND: 'FROB' }, msg: 'unknown CNI_COMMAND: FROB' },
    { env: { CNI_COMMAND: 'ADD', CNI_PATH: '/bin' }, msg: 'required env variables [CNI_CONTAINERID,CNI_NETNS,CNI_IFNAME] missing' },
    { env: { ...ADD, CNI_CONTAINERID: '-x' }, msg: 'invalid characters in containerID' },
    { env: { ...ADD, CNI_CONTAINERID: 'a/b' }, msg: 'invalid characters in containerID' },
    { env: { ...ADD, CNI_IFNAME: 'abcdefghijklmnop' }, msg: 'interface name is too long' },
    { env: { ...ADD, CNI_IFNAME: '..' }, msg: 'interface name is . or ..' },
    { env: { ...ADD, CNI_IFNAME: 'e 0' }, msg: 'interface name contains / or : or whitespace characters' },
  ])('rejects with "$msg"', ({ env, msg }) => {
    expect(() => readCniEnv(env)).toThrow(msg);
  });
});
