import { gcStateThroughTracker } from '../../src/rules/gc-state-through-tracker.js';
import { asEslintRule, repoFile, ruleTester } from '../rule-tester.js';

const controllerFile = repoFile('packages/gc/src/controller.ts');

ruleTester.run('gc-state-through-tracker', asEslintRule(gcStateThroughTracker), {
  valid: [
    { filename: controllerFile, code: 'this.state.assignAllocation(allocation);' },
    { filename: controllerFile, code: 'const leak = this.confirmedLeaks.get(id);\nfor (const [k] of this.leakCandidates) use(k);' },
    { filename: controllerFile, code: 'const n = this.allocationState.allocationsByNode.size;' },
    { filename: repoFile('packages/gc/src/gc-state.ts'), code: 'this.confirmedLeaks.delete(id);\nthis.allocationState = new AllocationState();' },
    { filename: repoFile('packages/gc/src/state/handle-tracker.ts'), code: 'this.handleTracker.allocationsByHandle.set(h, new Map());' },
    { filename: repoFile('packages/lb-alloc/src/controller.ts'), code: 'this.confirmedLeaks.clear();' },
    { filename: repoFile('packages/gc/tests/state.test.ts'), code: 'confirmedLeaks.clear();' },
    { filename: controllerFile, code: 'this.pods.set(key, pod);' },
  ],
  invalid: [
    {
      filename: controllerFile,
      code: 'this.confirmedLeaks.delete(id);',
      errors: [{ messageId: 'mutateState', line: 1, column: 1, data: { name: 'confirmedLeaks', method: 'delete' } }],
    },
    {
      filename: controllerFile,
      code: 'leakCandidates.set(id, allocation);',
      errors: [{ messageId: 'mutateState', line: 1, column: 1, data: { name: 'leakCandidates', method: 'set' } }],
    },
    {
      filename: controllerFile,
      code: 'this.handleTracker.allocationsByHandle.get(handle)?.delete(id);',
      errors: [{ messageId: 'mutateState', line: 1, column: 1, data: { name: 'allocationsByHandle', method: 'delete' } }],
    },
    {
      filename: controllerFile,
      code: 'this.allocationState = new AllocationState();',
      errors: [{ messageId: 'assignState', line: 1, column: 1, data: { name: 'allocationState' } }],
    },
    {
      filename: controllerFile,
      code: 'state.allocationsByIP[ip] = allocation;',
      errors: [{ messageId: 'assignState', line: 1, column: 1, data: { name: 'allocationsByIP' } }],
    },
    {
      filename: controllerFile,
      code: 'this.allocationState.dirtyNodes.add(node);',
      errors: [{ messageId: 'mutateState', line: 1, column: 1, data: { name: 'dirtyNodes', method: 'add' } }],
    },
    {
      filename: controllerFile,
      code: 'this.quarantine.clear();',
      options: [{ names: ['quarantine'] }],
      errors: [{ messageId: 'mutateState', line: 1, column: 1, data: { name: 'quarantine', method: 'clear' } }],
    },
  ],
});
