import { describe, expect, it } from 'vitest';
import { layering, locateFile } from '../../src/rules/layering.js';
import { asEslintRule, repoFile, ruleTester } from '../rule-tester.js';

describe('locateFile', () => {
  it.each([
    ['/repo/packages/models/src/net/cidr.ts', { pkg: 'models', packageRoot: '/repo/packages/models/', isTest: false }],
    ['/repo/packages/gc/tests/leaks.test.ts', { pkg: 'gc', packageRoot: '/repo/packages/gc/', isTest: true }],
    ['/repo/packages/gc/src/leaks.test.ts', { pkg: 'gc', packageRoot: '/repo/packages/gc/', isTest: true }],
    ['/repo/packages/sim/bench/churn.ts', { pkg: 'sim', packageRoot: '/repo/packages/sim/', isTest: true }],
    ['C:\\repo\\packages\\cni\\src\\add.ts', { pkg: 'cni', packageRoot: 'C:/repo/packages/cni/', isTest: false }],
    ['/x/packages/eslint-plugin/tests/fixtures/packages/cni/src/a.ts', { pkg: 'cni', packageRoot: '/x/packages/eslint-plugin/tests/fixtures/packages/cni/', isTest: false }],
  ])('places %s', (filename, expected) => {
    expect(locateFile(filename)).toEqual(expected);
  });

  it('returns undefined outside packages/', () => {
    expect(locateFile('/repo/scripts/main-job.ts')).toBeUndefined();
  });
});

ruleTester.run('layering', asEslintRule(layering), {
  valid: [
    { filename: repoFile('packages/models/src/net/cidr.ts'), code: "import ipaddr from 'ipaddr.js';" },
    { filename: repoFile('packages/ipam-datastore/src/memory/store.ts'), code: "import type { Datastore } from '@ipamkit/models';" },
    { filename: repoFile('packages/ipam-core/src/client.ts'), code: "import { ConflictError } from '@ipamkit/models';" },
    { filename: repoFile('packages/ipam-core/tests/auto-assign.test.ts'), code: "import { createDatastore } from '@ipamkit/ipam-datastore';\nimport { fixtures } from '@ipamkit/test-utils';" },
    { filename: repoFile('packages/gc/src/controller.ts'), code: "import { createIpamClient } from '@ipamkit/ipam-core';\nimport { createDatastore } from '@ipamkit/ipam-datastore/sqlite';" },
    { filename: repoFile('packages/sim/src/cluster.ts'), code: "import { runCni } from '@ipamkit/cni';\nimport { GarbageCollector } from '@ipamkit/gc';" },
    { filename: repoFile('packages/gc/src/bin.ts'), code: "import { runControllerMain } from '@ipamkit/kube-runtime';" },
    { filename: repoFile('packages/lb-alloc/src/view.ts'), code: "import { Reflector } from '@ipamkit/kube-runtime/kubernetes';" },
    { filename: repoFile('packages/kube-runtime/tests/lease.test.ts'), code: "import { startKubeApiServer } from '@ipamkit/test-utils';" },
    { filename: repoFile('packages/models/tests/public-api.test.ts'), code: "import { cidrToName } from '@ipamkit/models';" },
    { filename: repoFile('packages/cni/src/add.ts'), code: "import { parseArgs } from '../args/parse-args.js';" },
    { filename: repoFile('scripts/tool.ts'), code: "import { runCni } from '@ipamkit/cni';" },
    {
      filename: repoFile('packages/cni/src/add.ts'),
      code: "import { x } from '@ipamkit/gc';",
      options: [{ layers: { cni: { src: ['gc'] } } }],
    },
  ],
  invalid: [
    {
      // workspace-checks drives the packages as child processes and imports none of them.
      filename: repoFile('packages/workspace-checks/tests/affected-projects.test.ts'),
      code: "import { cidrToName } from '@ipamkit/models';",
      errors: [{ messageId: 'forbiddenImport', line: 1, column: 28, data: { from: 'workspace-checks', kind: 'tests', target: '@ipamkit/models', allowed: 'workspace-checks' } }],
    },
    {
      filename: repoFile('packages/kube-runtime/src/runner/run-controller.ts'),
      code: "import { GcController } from '@ipamkit/gc';",
      errors: [{ messageId: 'forbiddenImport', line: 1, column: 30, data: { from: 'kube-runtime', kind: 'code', target: '@ipamkit/gc', allowed: 'models' } }],
    },
    {
      filename: repoFile('packages/cni/src/add.ts'),
      code: "import { Reflector } from '@ipamkit/kube-runtime/kubernetes';",
      errors: [{ messageId: 'forbiddenImport', line: 1, column: 27 }],
    },
    {
      filename: repoFile('packages/models/src/index.ts'),
      code: "import { createIpamClient } from '@ipamkit/ipam-core';",
      errors: [
        {
          messageId: 'forbiddenImport',
          line: 1,
          column: 34,
          data: { from: 'models', kind: 'code', target: '@ipamkit/ipam-core', allowed: 'no workspace package' },
        },
      ],
    },
    {
      filename: repoFile('packages/ipam-core/src/client.ts'),
      code: "import { createDatastore } from '@ipamkit/ipam-datastore';",
      errors: [{ messageId: 'forbiddenImport', line: 1, column: 33, data: { from: 'ipam-core', kind: 'code', target: '@ipamkit/ipam-datastore', allowed: 'models' } }],
    },
    {
      filename: repoFile('packages/ipam-datastore/src/sqlite/store.ts'),
      code: "import type { IpamClient } from '@ipamkit/ipam-core';",
      errors: [{ messageId: 'forbiddenImport', line: 1, column: 33 }],
    },
    {
      filename: repoFile('packages/gc/src/controller.ts'),
      code: "import { runCni } from '@ipamkit/cni';",
      errors: [{ messageId: 'forbiddenImport', line: 1, column: 24 }],
    },
    {
      filename: repoFile('packages/cli/src/bin.ts'),
      code: "import { runSimulation } from '@ipamkit/sim';",
      errors: [{ messageId: 'forbiddenImport', line: 1, column: 31 }],
    },
    {
      filename: repoFile('packages/cni/src/add.ts'),
      code: "import { tempDir } from '@ipamkit/test-utils';",
      errors: [{ messageId: 'forbiddenImport', line: 1, column: 25, data: { from: 'cni', kind: 'code', target: '@ipamkit/test-utils', allowed: 'ipam-core, ipam-datastore, models' } }],
    },
    {
      filename: repoFile('packages/ipam-core/src/client.ts'),
      code: "const ds = await import('@ipamkit/ipam-datastore/memory');",
      errors: [{ messageId: 'forbiddenImport', line: 1, column: 25 }],
    },
    {
      filename: repoFile('packages/tunnel-alloc/src/reconcile.ts'),
      code: "import { autoAssign } from '../../ipam-core/src/auto-assign.js';",
      errors: [{ messageId: 'crossPackageRelative', line: 1, column: 28, data: { path: '../../ipam-core/src/auto-assign.js' } }],
    },
    {
      filename: repoFile('packages/cni/src/add.ts'),
      code: "import { x } from '@ipamkit/new-package';",
      errors: [{ messageId: 'forbiddenImport', line: 1, column: 19 }],
    },
  ],
});
