import { noWireTypesOutsideDatastore } from '../../src/rules/no-wire-types-outside-datastore.js';
import { asEslintRule, repoFile, ruleTester } from '../rule-tester.js';

const coreFile = repoFile('packages/ipam-core/src/auto-assign.ts');

ruleTester.run('no-wire-types-outside-datastore', asEslintRule(noWireTypesOutsideDatastore), {
  valid: [
    { filename: repoFile('packages/ipam-datastore/src/etcd/blocks.ts'), code: "import { decodeEtcd } from '@ipamkit/models';" },
    { filename: repoFile('packages/models/src/codecs/index.ts'), code: "export { encodeV1 } from './v1.js';" },
    { filename: coreFile, code: "import { cidrToName, type AllocationBlock } from '@ipamkit/models';" },
    { filename: coreFile, code: "import * as models from '@ipamkit/models';\nconst n = models.cidrToName(c);" },
    { filename: coreFile, code: "import { decodeV1 } from './local-decoder.js';" },
    {
      filename: repoFile('packages/cli/src/migrate/rewrite-handles.ts'),
      code: "import { decodeV3, encodeV1 } from '@ipamkit/models';",
      options: [{ additionalAllow: ['packages/cli/src/migrate/**'] }],
    },
  ],
  invalid: [
    {
      filename: coreFile,
      code: "import { cidrToName, decodeV1 } from '@ipamkit/models';",
      errors: [{ messageId: 'wireName', line: 1, column: 22, data: { name: 'decodeV1' } }],
    },
    {
      filename: repoFile('packages/cli/src/show.ts'),
      code: "import { encodeEtcd as enc, decodeEtcd } from '@ipamkit/models';",
      errors: [
        { messageId: 'wireName', line: 1, column: 10, data: { name: 'encodeEtcd' } },
        { messageId: 'wireName', line: 1, column: 29, data: { name: 'decodeEtcd' } },
      ],
    },
    {
      filename: coreFile,
      code: "import * as models from '@ipamkit/models';\nconst cr = models.encodeV3('IPPool', pool);",
      errors: [{ messageId: 'wireName', line: 2, column: 19, data: { name: 'encodeV3' } }],
    },
    {
      filename: coreFile,
      code: "export { decodeV3 } from '@ipamkit/models';",
      errors: [{ messageId: 'wireName', line: 1, column: 10 }],
    },
    {
      filename: coreFile,
      code: "import { blockFromV1 } from '@ipamkit/models/codecs/v1';",
      errors: [{ messageId: 'wireModule', line: 1, column: 29, data: { module: '@ipamkit/models/codecs/v1' } }],
    },
  ],
});
