import { requireSoftDeleteFilter } from '../../src/rules/require-soft-delete-filter.js';
import { asEslintRule, repoFile, ruleTester } from '../rule-tester.js';

const k8sFile = repoFile('packages/ipam-datastore/src/kubernetes/block-store.ts');

/** A backend with its own transport: one collection object per kind, filtered by `visibleRows`/`isDeleted`. */
const collectionStyle = {
  listFunctions: ['list'],
  getFunctions: ['get'],
  receiverPattern: '[cC]ollection$',
  checkUnknownPlural: true,
  listHelpers: ['visibleRows'],
  getHelpers: ['isDeleted'],
};

ruleTester.run('require-soft-delete-filter', asEslintRule(requireSoftDeleteFilter), {
  valid: [
    {
      filename: k8sFile,
      code: "const items = withoutSoftDeleted((await api.listClusterCustomObject({ group, version, plural: 'ipamblocks' })).items);",
    },
    {
      filename: k8sFile,
      code: "return visibleOrNotFound(decodeBlock(await api.getClusterCustomObject({ group, version, plural: 'ipamblocks', name })));",
    },
    {
      filename: k8sFile,
      code: [
        "const res = await api.listClusterCustomObject({ group, version, plural: 'blockaffinities', labelSelector });",
        'return withoutSoftDeleted(res.items).map(decodeAffinity);',
      ].join('\n'),
    },
    {
      filename: k8sFile,
      code: [
        "const { items } = (await api.listClusterCustomObject({ group, version, plural: 'ipamhandles' })) as List;",
        'return this.withoutSoftDeleted(items);',
      ].join('\n'),
    },
    {
      filename: k8sFile,
      code: "const PLURAL = 'ipamblocks';\nconst obj = visibleOrNotFound(await api.getClusterCustomObject(group, version, PLURAL, name));",
    },
    { filename: k8sFile, code: "const pools = await api.listClusterCustomObject({ group, version, plural: 'ippools' });" },
    { filename: k8sFile, code: 'const obj = await api.getClusterCustomObject({ group, version, plural, name });' },
    {
      filename: repoFile('packages/ipam-datastore/src/sqlite/block-store.ts'),
      code: "const res = await api.listClusterCustomObject({ group, version, plural: 'ipamblocks' });",
    },
    {
      filename: k8sFile,
      code: "const res = dropDeleted((await api.listClusterCustomObject({ group, version, plural: 'ipamblocks' })).items);",
      options: [{ listHelpers: ['dropDeleted'] }],
    },
    {
      filename: k8sFile,
      code: [
        'const raw = await this.collection.get(name);',
        'const model = this.binding.decode(raw);',
        'if (this.binding.softDelete && this.binding.isDeleted(model)) throw new NotFoundError(name);',
        'return model;',
      ].join('\n'),
      options: [collectionStyle],
    },
    {
      filename: k8sFile,
      code: 'const { items } = await this.collection.list(selector);\nreturn visibleRows(this.binding, items.map((raw) => decode(raw)));',
      options: [collectionStyle],
    },
    { filename: k8sFile, code: 'const hit = this.cache.get(name);', options: [collectionStyle] },
    {
      // Only the list's resourceVersion is used, which soft-deleted items do not change.
      filename: k8sFile,
      code: 'let revision = options.fromRevision ?? (await this.collection.list()).resourceVersion;',
      options: [collectionStyle],
    },
  ],
  invalid: [
    {
      filename: k8sFile,
      code: "const res = await api.listClusterCustomObject({ group, version, plural: 'ipamblocks' });\nreturn res.items.map(decodeBlock);",
      errors: [{ messageId: 'unfilteredList', line: 1, column: 19, data: { plural: 'ipamblocks', helpers: 'withoutSoftDeleted' } }],
    },
    {
      filename: k8sFile,
      code: "const obj = await api.getClusterCustomObject({ group, version, plural: 'blockaffinities', name });",
      errors: [{ messageId: 'unfilteredGet', line: 1, column: 19, data: { plural: 'blockaffinities', helpers: 'visibleOrNotFound' } }],
    },
    {
      // A list helper does not make a get safe.
      filename: k8sFile,
      code: "const obj = withoutSoftDeleted([await api.getClusterCustomObject({ group, version, plural: 'ipamhandles', name })]);",
      errors: [{ messageId: 'unfilteredGet', line: 1, column: 39 }],
    },
    {
      filename: k8sFile,
      code: "const r = await api.listNamespacedCustomObject(group, version, ns, 'ipamhandles');",
      errors: [{ messageId: 'unfilteredList', line: 1, column: 17 }],
    },
    {
      filename: k8sFile,
      code: "const PLURAL = 'ipamblocks';\nconst obj = await this.api.getClusterCustomObject({ group, version, plural: PLURAL, name });",
      errors: [{ messageId: 'unfilteredGet', line: 2, column: 19 }],
    },
    {
      // The filtered value must be the read's result, not something computed next to it.
      filename: k8sFile,
      code: [
        "const res = await api.listClusterCustomObject({ group, version, plural: 'ipamblocks' });",
        'const other = withoutSoftDeleted(cached);',
        'return res.items;',
      ].join('\n'),
      errors: [{ messageId: 'unfilteredList', line: 1, column: 19 }],
    },
    {
      filename: k8sFile,
      code: 'const raw = await this.collection.get(name);\nreturn this.binding.decode(raw);',
      options: [collectionStyle],
      errors: [{ messageId: 'unfilteredGet', line: 1, column: 19, data: { plural: 'soft-deletable objects', helpers: 'isDeleted' } }],
    },
  ],
});
