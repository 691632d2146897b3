import { posix } from 'node:path';
import { createRule } from '../utils/create-rule.js';
import { optionsObject, STRING_LIST } from '../utils/options-schema.js';
import { toPosix } from '../utils/glob.js';
import { visitModuleReferences } from '../utils/module-visitor.js';

/** Which workspace packages one package may import, from production code and from tests. */
export interface LayerEntry {
  src: string[];
  /** Added to `src` for tests and benchmarks; defaults to none. */
  tests?: string[];
}

export interface LayeringOptions {
  /** npm scope of the workspace packages. */
  scope?: string;
  /** Per-package overrides of the default layer table (merged by package name). */
  layers?: Record<string, LayerEntry>;
}

const CALLER_DEPS = ['models', 'ipam-core', 'ipam-datastore'];
/** The Kubernetes controllers also build on the shared controller runtime (design/kube-runtime.md). */
const CONTROLLER_DEPS = [...CALLER_DEPS, 'kube-runtime'];

/** The layer table of design/architecture.md#layers. */
export const DEFAULT_LAYERS: Record<string, LayerEntry> = {
  models: { src: [] },
  'ipam-datastore': { src: ['models'], tests: ['test-utils'] },
  'ipam-core': { src: ['models'], tests: ['ipam-datastore', 'test-utils'] },
  cni: { src: CALLER_DEPS, tests: ['test-utils'] },
  'kube-runtime': { src: ['models'], tests: ['test-utils'] },
  gc: { src: CONTROLLER_DEPS, tests: ['test-utils'] },
  'tunnel-alloc': { src: CALLER_DEPS, tests: ['test-utils'] },
  'lb-alloc': { src: CONTROLLER_DEPS, tests: ['test-utils'] },
  cli: { src: CALLER_DEPS, tests: ['test-utils'] },
  sim: { src: [...CALLER_DEPS, 'cni', 'gc', 'tunnel-alloc', 'lb-alloc', 'cli'], tests: ['test-utils'] },
  'test-utils': { src: ['models'] },
  'eslint-plugin': { src: [] },
  // Checks the workspace from the outside (git, nx, npm): it imports no workspace package.
  'workspace-checks': { src: [], tests: [] },
};

const TEST_PATH = /(?:^|\/)(?:tests|bench|__tests__)\/|\.(?:test|spec|bench)\.[cm]?[jt]sx?$/;

/** Where a file sits: its package and whether it is test code. Uses the innermost `packages/<name>/`. */
export function locateFile(filename: string): { pkg: string; packageRoot: string; isTest: boolean } | undefined {
  const segments = toPosix(filename).split('/');
  for (let i = segments.length - 3; i >= 0; i -= 1) {
    const pkg = segments[i + 1];
    if (segments[i] !== 'packages' || pkg === undefined) continue;
    const rest = segments.slice(i + 2).join('/');
    return { pkg, packageRoot: `${segments.slice(0, i + 2).join('/')}/`, isTest: TEST_PATH.test(rest) };
  }
  return undefined;
}

type MessageIds = 'forbiddenImport' | 'crossPackageRelative';

export const layering = createRule<LayeringOptions, MessageIds>({
  name: 'layering',
  description: 'Enforce the package layering of design/architecture.md#layers',
  rubric: 'design/architecture.md#layers; design/README.md layering paragraph',
  messages: {
    forbiddenImport:
      '`{{from}}` {{kind}} may not import `{{target}}`: the layer table allows {{allowed}}.',
    crossPackageRelative:
      'Do not reach into another package with a relative path (`{{path}}`); import the package by name, if the layer table allows it.',
  },
  schema: optionsObject({
    scope: { type: 'string' },
    layers: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: { src: STRING_LIST, tests: STRING_LIST },
        required: ['src'],
        additionalProperties: false,
      },
    },
  }),
  create(context, [options]) {
    const location = locateFile(context.filename);
    if (location === undefined) return {};
    const layers = { ...DEFAULT_LAYERS, ...(options.layers ?? {}) };
    const entry = layers[location.pkg];
    if (entry === undefined) return {};
    const scope = options.scope ?? '@ipamkit';
    const allowed = new Set(location.isTest ? [...entry.src, ...(entry.tests ?? []), location.pkg] : entry.src);
    const fileDir = posix.dirname(toPosix(context.filename));

    return visitModuleReferences((_node, source) => {
      const spec = source.value;
      if (spec.startsWith(`${scope}/`)) {
        const target = spec.slice(scope.length + 1).split('/')[0] ?? '';
        if (allowed.has(target)) return;
        context.report({
          node: source,
          messageId: 'forbiddenImport',
          data: {
            from: location.pkg,
            kind: location.isTest ? 'tests' : 'code',
            target: spec,
            allowed: allowed.size === 0 ? 'no workspace package' : [...allowed].sort().join(', '),
          },
        });
      } else if (spec.startsWith('.')) {
        const resolved = posix.join(fileDir, spec);
        if (!resolved.startsWith(location.packageRoot)) {
          context.report({ node: source, messageId: 'crossPackageRelative', data: { path: spec } });
        }
      }
    });
  },
});
