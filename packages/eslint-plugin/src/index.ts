import { type TSESLint } from '@typescript-eslint/utils';
import { gcStateThroughTracker } from './rules/gc-state-through-tracker.js';
import { layering } from './rules/layering.js';
import { noBlockMutation } from './rules/no-block-mutation.js';
import { noKubernetesClientOutsideDatastore } from './rules/no-kubernetes-client-outside-datastore.js';
import { noRawHandleId } from './rules/no-raw-handle-id.js';
import { noWireTypesOutsideDatastore } from './rules/no-wire-types-outside-datastore.js';
import { requireReleaseSequenceNumber } from './rules/require-release-sequence-number.js';
import { requireSoftDeleteFilter } from './rules/require-soft-delete-filter.js';

export type { GcStateThroughTrackerOptions } from './rules/gc-state-through-tracker.js';
export type { LayerEntry, LayeringOptions } from './rules/layering.js';
export type { NoBlockMutationOptions } from './rules/no-block-mutation.js';
export type { NoKubernetesClientOptions } from './rules/no-kubernetes-client-outside-datastore.js';
export type { NoRawHandleIdOptions } from './rules/no-raw-handle-id.js';
export type { NoWireTypesOptions } from './rules/no-wire-types-outside-datastore.js';
export type { RequireReleaseSequenceNumberOptions } from './rules/require-release-sequence-number.js';
export type { RequireSoftDeleteFilterOptions } from './rules/require-soft-delete-filter.js';
export { DEFAULT_LAYERS } from './rules/layering.js';

/** Every rule, by the name users write after `ipamkit/`. */
export const rules = {
  'gc-state-through-tracker': gcStateThroughTracker,
  layering,
  'no-block-mutation': noBlockMutation,
  'no-kubernetes-client-outside-datastore': noKubernetesClientOutsideDatastore,
  'no-raw-handle-id': noRawHandleId,
  'no-wire-types-outside-datastore': noWireTypesOutsideDatastore,
  'require-release-sequence-number': requireReleaseSequenceNumber,
  'require-soft-delete-filter': requireSoftDeleteFilter,
} satisfies Record<string, TSESLint.RuleModule<string, unknown[]>>;

const PLUGIN_NAME = '@ipamkit/eslint-plugin';
/** Put in from package.json by the build (tsup.shared.mts) and the tests (vitest.shared.mts). */
declare const __PACKAGE_VERSION__: string;
const PLUGIN_VERSION = __PACKAGE_VERSION__;

/** The plugin object for `plugins: { ipamkit: plugin }` in a flat config. */
export const plugin = {
  meta: { name: PLUGIN_NAME, version: PLUGIN_VERSION },
  rules,
} satisfies TSESLint.FlatConfig.Plugin;

/**
 * Flat configs. `recommended` turns every rule on with its defaults; the path-scoped rules
 * (soft-delete filter, GC state) carry their own `include` globs, so one block covers a repository.
 */
export const configs = {
  recommended: {
    name: 'ipamkit/recommended',
    plugins: { ipamkit: plugin },
    rules: Object.fromEntries(Object.keys(rules).map((name) => [`ipamkit/${name}`, 'error'])),
  },
} satisfies Record<string, TSESLint.FlatConfig.Config>;

const pluginWithConfigs: typeof plugin & { configs: typeof configs } = { ...plugin, configs };
export default pluginWithConfigs;
