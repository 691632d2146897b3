import { noRawHandleId } from '../../src/rules/no-raw-handle-id.js';
import { asEslintRule, repoFile, ruleTester } from '../rule-tester.js';

const tunnelFile = repoFile('packages/tunnel-alloc/src/reconcile.ts');

ruleTester.run('no-raw-handle-id', asEslintRule(noRawHandleId), {
  valid: [
    { filename: repoFile('packages/tunnel-alloc/src/handle-id.ts'), code: 'export const ipip = (node: string) => `ipip-tunnel-addr-${node}`;' },
    { filename: repoFile('packages/cni/src/handles/cni-handle.ts'), code: 'const handleId = `${network}.${containerId}`;' },
    { filename: tunnelFile, code: 'const handleId = tunnelHandleId({ type: "ipip", node });' },
    { filename: tunnelFile, code: "const prefix = 'ipip-tunnel-addr-';" },
    { filename: tunnelFile, code: 'const fqdn = `${host}.${domain}`;' },
    { filename: tunnelFile, code: 'log(`${a}.${b}`);' },
    { filename: tunnelFile, code: 'const total = count + 1;' },
    { filename: tunnelFile, code: 'const label = `pool-${name}`;' },
    { filename: tunnelFile, code: 'const msg = `released ${n} addresses`;' },
    { filename: tunnelFile, code: 'const text = html`lb-${x}`;' },
  ],
  invalid: [
    {
      filename: tunnelFile,
      code: 'const h = `ipip-tunnel-addr-${node}`;',
      errors: [{ messageId: 'tunnelHandle', line: 1, column: 11 }],
    },
    {
      filename: tunnelFile,
      code: "const h = kind + '-tunnel-addr-' + node;",
      errors: [{ messageId: 'tunnelHandle', line: 1, column: 11 }],
    },
    {
      filename: repoFile('packages/cli/src/migrate/rename-node.ts'),
      code: 'const renamed = `${kind}-tunnel-addr-${newName}`;',
      errors: [{ messageId: 'tunnelHandle', line: 1, column: 17 }],
    },
    {
      filename: repoFile('packages/lb-alloc/src/service.ts'),
      code: "await client.releaseByHandle('lb-' + hash);",
      errors: [{ messageId: 'loadBalancerHandle', line: 1, column: 30 }],
    },
    {
      filename: repoFile('packages/lb-alloc/src/service.ts'),
      code: 'const id = `lb-${digest}`;',
      errors: [{ messageId: 'loadBalancerHandle', line: 1, column: 12 }],
    },
    {
      filename: repoFile('packages/cni/src/cmd-add.ts'),
      code: 'const handleId = `${network}.${containerId}`;',
      errors: [{ messageId: 'cniHandle', line: 1, column: 18 }],
    },
    {
      filename: repoFile('packages/cni/src/cmd-add.ts'),
      code: 'await ipam.autoAssign({ handleId: `${conf.name}.${args.containerId}`, hostname });',
      errors: [{ messageId: 'cniHandle', line: 1, column: 35 }],
    },
    {
      filename: repoFile('packages/cni/src/cmd-del.ts'),
      code: "await ipam.releaseByHandle(net + '.' + id);",
      errors: [{ messageId: 'cniHandle', line: 1, column: 28 }],
    },
    {
      filename: repoFile('packages/gc/src/classify.ts'),
      code: ['function podHandle(net: string, id: string) {', '  return `${net}.${id}`;', '}'].join('\n'),
      errors: [{ messageId: 'cniHandle', line: 2, column: 10 }],
    },
    {
      filename: repoFile('packages/cni/src/handle-id.ts'),
      code: 'const handle = `${net}.${id}`;',
      options: [{ allow: ['**/ids/**'] }],
      errors: [{ messageId: 'cniHandle', line: 1, column: 16 }],
    },
  ],
});
