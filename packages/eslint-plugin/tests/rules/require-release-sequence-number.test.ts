import { requireReleaseSequenceNumber } from '../../src/rules/require-release-sequence-number.js';
import { asEslintRule, repoFile, ruleTester } from '../rule-tester.js';

const gcFile = repoFile('packages/gc/src/release-leaks.ts');

ruleTester.run('require-release-sequence-number', asEslintRule(requireReleaseSequenceNumber), {
  valid: [
    { filename: gcFile, code: "client.releaseIPs([{ address: '10.0.0.1', handle: 'h', sequenceNumber: 3n }]);" },
    { filename: gcFile, code: "releaseIPs({ address: '10.0.0.1', sequenceNumber: seq });" },
    { filename: gcFile, code: 'client.releaseIPs([{ ...leak.releaseOptions() }]);' },
    { filename: gcFile, code: 'client.releaseIPs(options);' },
    { filename: gcFile, code: 'client.releaseIPs(ips.map((address) => ({ address, sequenceNumber: seqOf(address) })));' },
    { filename: gcFile, code: "client.releaseByHandle('k8s-pod-network.abc');" },
    { filename: gcFile, code: "collector.free([{ address: '10.0.0.1' }]);" },
    { filename: repoFile('packages/ipam-core/tests/release-ips.test.ts'), code: "client.releaseIPs([{ address: '10.0.0.1' }]);" },
    { filename: repoFile('packages/ipam-core/src/release/release-ips.test.ts'), code: "client.releaseIPs([{ address: '10.0.0.1' }]);" },
  ],
  invalid: [
    {
      filename: gcFile,
      code: "client.releaseIPs([{ address: '10.0.0.1', handle: 'h' }]);",
      errors: [{ messageId: 'missingSequenceNumber', line: 1, column: 20 }],
    },
    {
      filename: gcFile,
      code: "releaseIPs({ address: '10.0.0.1' });",
      errors: [{ messageId: 'missingSequenceNumber', line: 1, column: 12 }],
    },
    {
      filename: gcFile,
      code: ['await client.releaseIPs([', "  { address: '10.0.0.1', sequenceNumber: 1n },", "  { address: '10.0.0.2' },", ']);'].join('\n'),
      errors: [{ messageId: 'missingSequenceNumber', line: 3, column: 3 }],
    },
    {
      filename: gcFile,
      code: 'client.releaseIPs(ips.map((address) => ({ address })));',
      errors: [{ messageId: 'missingSequenceNumber', line: 1, column: 41 }],
    },
    {
      filename: gcFile,
      code: ['client.releaseIPs(ips.map(function (address) {', '  return { address, handle };', '}));'].join('\n'),
      errors: [{ messageId: 'missingSequenceNumber', line: 2, column: 10 }],
    },
    {
      // Only the computed key `[sequenceNumber]` is present, which is not the field.
      filename: gcFile,
      code: "client.releaseIPs([{ address: '10.0.0.1', [sequenceNumber]: 1n }]);",
      errors: [{ messageId: 'missingSequenceNumber', line: 1, column: 20 }],
    },
    {
      filename: gcFile,
      code: "collector.free([{ address: '10.0.0.1' }]);",
      options: [{ functions: ['free'] }],
      errors: [{ messageId: 'missingSequenceNumber', line: 1, column: 17 }],
    },
    {
      // The core's own source is not exempt, only its tests.
      filename: repoFile('packages/ipam-core/src/release-by-handle.ts'),
      code: 'this.releaseIPs([{ address }]);',
      errors: [{ messageId: 'missingSequenceNumber', line: 1, column: 18 }],
    },
  ],
});
