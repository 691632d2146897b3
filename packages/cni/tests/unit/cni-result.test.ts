import { describe, expect, it } from 'vitest';
import { renderError, renderResult } from '../../src/result/cni-result.js';

const result = { ips: [{ address: '192.168.52.7/26' }, { address: 'fd80::7/122' }], routes: [{ dst: '192.168.52.7/26' }, { dst: 'fd80::7/122' }] };

describe('renderResult', () => {
  it('writes 0.3.x/0.4.0 in struct order with versions and an empty dns', () => {
    expect(renderResult('0.4.0', result)).toBe(
      JSON.stringify(
        { cniVersion: '0.4.0', ips: [{ version: '4', address: '192.168.52.7/26' }, { version: '6', address: 'fd80::7/122' }], routes: result.routes, dns: {} },
        null,
        4,
      ),
    );
  });

  it('writes 1.x with sorted keys, no versions and no empty dns', () => {
    const text = renderResult('1.1.0', { ips: [{ gateway: '169.254.1.1', address: '10.0.0.1/26' }], routes: [] });
    expect(text).toBe('{\n    "cniVersion": "1.1.0",\n    "ips": [\n        {\n            "address": "10.0.0.1/26",\n            "gateway": "169.254.1.1"\n        }\n    ]\n}');
  });

  it('omits details when empty', () => {
    expect(renderError({ code: 7, message: 'bad', details: '' })).toBe('{\n    "code": 7,\n    "msg": "bad"\n}');
    expect(JSON.parse(renderError({ code: 4, message: 'bad', details: 'x' }))).toEqual({ code: 4, msg: 'bad', details: 'x' });
  });
});
