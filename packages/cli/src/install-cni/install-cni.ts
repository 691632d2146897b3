import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createDatastore, type DatastoreConfig } from '@ipamkit/ipam-datastore';
import { AlreadyExistsError } from '@ipamkit/models';
import { CliUsageError } from '../errors.js';
import { writeFileAtomically, type FileOutcome } from './atomic-write.js';
import { apiServerUrl, cniKubeconfig, readServiceAccount } from './cni-kubeconfig.js';
import { defaultConflist, patchConflist, pluginDatastoreKeys, renderConflist } from './conflist.js';

export const DEFAULT_BIN_DIR = '/opt/cni/bin';
export const DEFAULT_NET_DIR = '/etc/cni/net.d';
export const DEFAULT_SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
export const DEFAULT_CONFLIST_NAME = '10-calico.conflist';
export const KUBECONFIG_NAME = 'calico-kubeconfig';
/** The files of the plugin, installed side by side: the executable loads the addon from beside itself. */
export const PLUGIN_FILES = ['calico-ipam', 'better_sqlite3.node'] as const;

export interface InstallCniOptions {
  readonly binDir: string;
  readonly netDir: string;
  /** Where the plugin files come from; default: IPAMKIT_PLUGIN_DIR, else `dist/` of the installed @ipamkit/cni. */
  readonly pluginDir?: string;
  readonly serviceAccountDir: string;
  readonly conflistName: string;
  readonly nodeName: string;
  readonly datastore: DatastoreConfig;
  readonly env: NodeJS.ProcessEnv;
}

export interface InstalledFile {
  readonly path: string;
  readonly outcome: FileOutcome;
}

export interface InstallCniResult {
  readonly files: readonly InstalledFile[];
  /** Only on SQLite: whether this run created the node. */
  readonly node?: { readonly name: string; readonly outcome: 'created' | 'unchanged' };
  readonly changed: boolean;
}

/** The plugin's source directory (design/cli.md, "install-cni"): flag, then IPAMKIT_PLUGIN_DIR, then @ipamkit/cni's dist/. */
export function pluginSourceDir(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  if (flag !== undefined && flag !== '') return resolve(flag);
  const fromEnv = env.IPAMKIT_PLUGIN_DIR;
  if (fromEnv !== undefined && fromEnv !== '') return resolve(fromEnv);
  try {
    return join(dirname(createRequire(import.meta.url).resolve('@ipamkit/cni/package.json')), 'dist');
  } catch {
    throw new CliUsageError('no plugin to install: pass --plugin-dir, set IPAMKIT_PLUGIN_DIR, or install @ipamkit/cni beside @ipamkit/cli');
  }
}

async function readPluginFile(dir: string, name: string): Promise<Buffer> {
  try {
    return await readFile(join(dir, name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new CliUsageError(`${join(dir, name)} is missing: build @ipamkit/cni (npm run build in packages/cni) or point --plugin-dir at its dist/`);
    throw err;
  }
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function ensureNode(config: DatastoreConfig, name: string): Promise<'created' | 'unchanged'> {
  const datastore = await createDatastore(config);
  try {
    await datastore.nodes.create({ name });
    return 'created';
  } catch (err) {
    if (err instanceof AlreadyExistsError) return 'unchanged';
    throw err;
  } finally {
    await datastore.close();
  }
}

/**
 * Installs calico-ipam on this host (design/cli.md, "install-cni"): the executable and its addon
 * into the bin dir, the kubeconfig from the service account (when there is one), the conflist
 * written or patched; on SQLite the database and this node. Every file is replaced atomically and
 * only when its contents change, so a second run reports nothing changed.
 */
export async function installCni(options: InstallCniOptions): Promise<InstallCniResult> {
  if (options.nodeName.trim() === '') throw new CliUsageError('--node-name must not be empty');
  const source = pluginSourceDir(options.pluginDir, options.env);
  // Read everything first: bad input fails before anything on the host changes.
  // One after the other, so the error always names the first missing file.
  const binaries: { name: string; bytes: Buffer }[] = [];
  for (const name of PLUGIN_FILES) binaries.push({ name, bytes: await readPluginFile(source, name) });
  const account = await readServiceAccount(options.serviceAccountDir);
  if (options.datastore.type === 'kubernetes' && account === undefined && options.datastore.kubeconfig === undefined) {
    throw new CliUsageError(`the kubernetes datastore needs a service account token in ${options.serviceAccountDir} (or --kubeconfig)`);
  }
  const kubeconfigPath = join(options.netDir, KUBECONFIG_NAME);
  const kubeconfig = account === undefined ? undefined : cniKubeconfig(apiServerUrl(options.env), account);
  const datastore: DatastoreConfig =
    options.datastore.type === 'kubernetes' && kubeconfig !== undefined ? { ...options.datastore, kubeconfig: kubeconfigPath } : options.datastore;
  const keys = pluginDatastoreKeys(datastore, options.nodeName);
  const conflistPath = join(options.netDir, options.conflistName);
  const existing = await readOptional(conflistPath);
  const conflist = renderConflist(existing === undefined ? defaultConflist(keys) : patchConflist(existing, conflistPath, keys));

  await mkdir(options.binDir, { recursive: true });
  await mkdir(options.netDir, { recursive: true });
  const files: InstalledFile[] = [];
  for (const { name, bytes } of binaries) {
    const path = join(options.binDir, name);
    files.push({ path, outcome: await writeFileAtomically(path, bytes, 0o755) });
  }
  if (kubeconfig !== undefined) files.push({ path: kubeconfigPath, outcome: await writeFileAtomically(kubeconfigPath, kubeconfig, 0o600) });
  // The conflist last: a runtime that sees it must find the plugin and its kubeconfig in place.
  files.push({ path: conflistPath, outcome: await writeFileAtomically(conflistPath, conflist, 0o644) });

  const node = datastore.type === 'sqlite' ? { name: options.nodeName, outcome: await ensureNode(datastore, options.nodeName) } : undefined;
  const changed = files.some((f) => f.outcome === 'written') || node?.outcome === 'created';
  return { files, ...(node === undefined ? {} : { node }), changed };
}

export function defaultNodeName(env: NodeJS.ProcessEnv): string {
  return env.NODENAME ?? hostname();
}

export function renderInstallCni(result: InstallCniResult): string {
  const lines = result.files.map((f) => `${f.outcome === 'written' ? 'wrote' : 'unchanged'} ${f.path}`);
  if (result.node !== undefined) lines.push(`${result.node.outcome === 'created' ? 'created' : 'unchanged'} node ${result.node.name}`);
  lines.push(result.changed ? 'calico-ipam installed' : 'nothing changed: calico-ipam was already installed');
  return `${lines.join('\n')}\n`;
}
