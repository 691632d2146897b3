import { noKubernetesClientOutsideDatastore } from '../../src/rules/no-kubernetes-client-outside-datastore.js';
import { asEslintRule, repoFile, ruleTester } from '../rule-tester.js';

const gcFile = repoFile('packages/gc/src/controller.ts');

ruleTester.run('no-kubernetes-client-outside-datastore', asEslintRule(noKubernetesClientOutsideDatastore), {
  valid: [
    { filename: repoFile('packages/ipam-datastore/src/kubernetes/client.ts'), code: "import { KubeConfig } from '@kubernetes/client-node';" },
    { filename: repoFile('packages/test-utils/src/fake-apiserver.ts'), code: "import * as k8s from '@kubernetes/client-node';" },
    { filename: repoFile('packages/ipam-datastore/tests/kubernetes/server.ts'), code: "import { ApiException } from '@kubernetes/client-node';" },
    { filename: gcFile, code: "import { createDatastore } from '@ipamkit/ipam-datastore';" },
    { filename: gcFile, code: "import { x } from '@kubernetes/client-node-extra';" },
    {
      filename: repoFile('packages/gc/src/cluster-view/kubernetes/informers.ts'),
      code: "import { makeInformer } from '@kubernetes/client-node';",
      options: [{ additionalAllow: ['packages/*/src/cluster-view/kubernetes/**'] }],
    },
  ],
  invalid: [
    {
      filename: gcFile,
      code: "import { CoreV1Api } from '@kubernetes/client-node';",
      errors: [{ messageId: 'kubernetesClient', line: 1, column: 27, data: { module: '@kubernetes/client-node' } }],
    },
    {
      filename: gcFile,
      code: "import type { V1Pod } from '@kubernetes/client-node';",
      errors: [{ messageId: 'kubernetesClient', line: 1, column: 28 }],
    },
    {
      filename: gcFile,
      code: "const k8s = await import('@kubernetes/client-node');",
      errors: [{ messageId: 'kubernetesClient', line: 1, column: 26 }],
    },
    {
      filename: gcFile,
      code: "const k8s = require('@kubernetes/client-node/dist/gen');",
      errors: [{ messageId: 'kubernetesClient', line: 1, column: 21 }],
    },
    {
      filename: gcFile,
      code: "export { KubeConfig } from '@kubernetes/client-node';",
      errors: [{ messageId: 'kubernetesClient', line: 1, column: 28 }],
    },
    {
      // `allow` replaces the defaults: the datastore path is no longer allowed.
      filename: repoFile('packages/ipam-datastore/src/kubernetes/client.ts'),
      code: "import { KubeConfig } from '@kubernetes/client-node';",
      options: [{ allow: ['packages/other/**'] }],
      errors: [{ messageId: 'kubernetesClient', line: 1, column: 28 }],
    },
  ],
});
