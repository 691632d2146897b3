import { describe } from 'vitest';
import { join } from 'node:path';
import { noBlockMutation } from '../../src/rules/no-block-mutation.js';
import { asEslintRule, repoFile, ruleTester, typedFixtureRoot, typedRuleTester } from '../rule-tester.js';

const cniFile = repoFile('packages/cni/src/cmd-add.ts');
const blockModuleFile = repoFile('packages/ipam-core/src/block/assign.ts');

describe('without type information (names)', () => {
  ruleTester.run('no-block-mutation', asEslintRule(noBlockMutation), {
    valid: [
      { filename: cniFile, code: 'const next = assignOrdinals(block, 1);' },
      { filename: cniFile, code: 'const ordinals = block.allocations.filter((a) => a !== null);' },
      { filename: cniFile, code: 'pool.allocations = [];' },
      { filename: cniFile, code: 'block.cidr = "10.0.0.0/26";' },
      { filename: cniFile, code: 'list.push(block.allocations.length);' },
      { filename: blockModuleFile, code: 'block.allocations[3] = 0; block.unallocated.shift();' },
      { filename: cniFile, code: 'block.allocations[0] = null;', options: [{ allow: ['packages/cni/**'] }] },
      {
        // A block being built from an object literal (as a codec does) is not one read from the store.
        filename: repoFile('packages/models/src/codecs/block-fields.ts'),
        code: 'const block = { cidr, allocations };\nif (owner) block.affinity = owner;\nblock.attributes.push(attr);',
      },
    ],
    invalid: [
      {
        filename: cniFile,
        code: 'block.sequenceNumber = block.sequenceNumber + 1n;',
        errors: [{ messageId: 'assignField', line: 1, column: 1, data: { field: 'sequenceNumber' } }],
      },
      {
        filename: cniFile,
        code: 'newBlock.allocations[3] = null;',
        errors: [{ messageId: 'assignField', line: 1, column: 1 }],
      },
      {
        filename: cniFile,
        code: 'this.block.attributes[0].handleId = "h";',
        errors: [{ messageId: 'assignField', line: 1, column: 1, data: { field: 'attributes' } }],
      },
      {
        filename: cniFile,
        code: 'block.unallocated.push(7);',
        errors: [{ messageId: 'mutateField', line: 1, column: 1, data: { field: 'unallocated', method: 'push' } }],
      },
      {
        filename: cniFile,
        code: ['const x = 1;', 'current.block.allocations.splice(0, 1);'].join('\n'),
        errors: [{ messageId: 'mutateField', line: 2, column: 1 }],
      },
      {
        filename: cniFile,
        code: 'delete block.sequenceNumberForAllocation["3"];',
        errors: [{ messageId: 'assignField', line: 1, column: 8, data: { field: 'sequenceNumberForAllocation' } }],
      },
      {
        // Initialised from a read, or reassigned later: no longer a fresh literal.
        filename: cniFile,
        code: 'let block = { cidr };\nblock = await store.get(cidr);\nblock.deleted = true;',
        errors: [{ messageId: 'assignField', line: 3, column: 1, data: { field: 'deleted' } }],
      },
      {
        filename: cniFile,
        code: 'const block = await store.get(cidr);\nblock.deleted = true;',
        errors: [{ messageId: 'assignField', line: 2, column: 1, data: { field: 'deleted' } }],
      },
      {
        filename: cniFile,
        code: 'block.sequenceNumber++;',
        errors: [{ messageId: 'assignField', line: 1, column: 1 }],
      },
      {
        filename: cniFile,
        code: 'block.deleted = true; block.affinity = undefined; block.affinityClaimTime = now;',
        errors: [
          { messageId: 'assignField', line: 1, column: 1, data: { field: 'deleted' } },
          { messageId: 'assignField', line: 1, column: 23, data: { field: 'affinity' } },
          { messageId: 'assignField', line: 1, column: 51, data: { field: 'affinityClaimTime' } },
        ],
      },
      {
        filename: cniFile,
        code: 'b.unallocated.reverse();',
        options: [{ namePattern: '^b$' }],
        errors: [{ messageId: 'mutateField', line: 1, column: 1 }],
      },
    ],
  });
});

const prelude = [
  'interface AllocationBlock { cidr: string; allocations: (number | null)[]; unallocated: number[]; sequenceNumber: bigint; deleted: boolean }',
  'type Versioned<T> = T & { revision: string };',
  'interface Pool { allocations: number[] }',
].join('\n');
// Each typed case gets a file of its own, so no case can ever be type-checked against another
// case's text (see also disallowAutomaticSingleRunInference in rule-tester.ts: with CI=true
// typescript-eslint would otherwise build each program once and ignore later texts).
let typedCase = 0;
function typedCni(): string {
  typedCase += 1;
  return join(typedFixtureRoot, `packages/cni/src/case-${typedCase}.ts`);
}
const typedBlockModule = join(typedFixtureRoot, 'packages/ipam-core/src/block/file.ts');

describe('with type information', () => {
  typedRuleTester.run('no-block-mutation', asEslintRule(noBlockMutation), {
    valid: [
      // Named like a block but typed as something else: types win over names.
      { filename: typedCni(), code: `${prelude}\ndeclare const block: Pool;\nblock.allocations.push(1);` },
      { filename: typedCni(), code: `${prelude}\ndeclare const b: AllocationBlock;\nconst n = b.unallocated.length;` },
      { filename: typedBlockModule, code: `${prelude}\ndeclare const b: AllocationBlock;\nb.unallocated.push(1);` },
      {
        filename: typedCni(),
        code: `${prelude}\nconst fresh: AllocationBlock = { cidr: 'c', allocations: [], unallocated: [], sequenceNumber: 0n, deleted: false };\nfresh.deleted = true;`,
      },
    ],
    invalid: [
      {
        filename: typedCni(),
        code: `${prelude}\ndeclare const read: AllocationBlock;\nread.unallocated.push(1);`,
        errors: [{ messageId: 'mutateField', line: 5, column: 1, data: { field: 'unallocated', method: 'push' } }],
      },
      {
        filename: typedCni(),
        code: `${prelude}\ndeclare const stored: Versioned<AllocationBlock>;\nstored.sequenceNumber = 2n;`,
        errors: [{ messageId: 'assignField', line: 5, column: 1, data: { field: 'sequenceNumber' } }],
      },
      {
        filename: typedCni(),
        code: `${prelude}\ndeclare const all: AllocationBlock[];\nall[0]!.allocations[2] = 5;`,
        errors: [{ messageId: 'assignField', line: 5, column: 1, data: { field: 'allocations' } }],
      },
      {
        filename: typedCni(),
        code: `${prelude}\ndeclare const x: Readonly<AllocationBlock> | undefined;\nif (x) (x as AllocationBlock).deleted = true;`,
        errors: [{ messageId: 'assignField', line: 5, column: 8, data: { field: 'deleted' } }],
      },
      {
        filename: typedCni(),
        code: `${prelude}\ndeclare const frozen: Readonly<AllocationBlock>;\nfrozen.unallocated.sort();`,
        errors: [{ messageId: 'mutateField', line: 5, column: 1, data: { field: 'unallocated', method: 'sort' } }],
      },
    ],
  });
});
