import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { definedFields } from '@ipamkit/models';
import type { KubeconfigLoad, KubeConnection } from './kube-connection.js';
import { fileErrorCode, KubeconfigError } from './kubeconfig-error.js';
import { MiniYamlError, parseMiniYaml, type YamlValue } from './mini-yaml.js';

type YamlMap = { readonly [key: string]: YamlValue };

/** Field access that names the field on a wrong type and never shows the value. */
class Fields {
  constructor(private readonly path: string) {}

  fail(where: string, problem: string): KubeconfigError {
    return new KubeconfigError(`kubeconfig ${this.path}: ${where} ${problem}`);
  }

  map(v: YamlValue | undefined, where: string): YamlMap | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'object' || Array.isArray(v)) throw this.fail(where, 'must be a mapping');
    return v;
  }

  list(v: YamlValue | undefined, where: string): readonly YamlValue[] {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) throw this.fail(where, 'must be a list');
    return v;
  }

  text(v: YamlValue | undefined, where: string): string | undefined {
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string') throw this.fail(where, 'must be a string');
    return v;
  }

  flag(v: YamlValue | undefined, where: string): boolean {
    if (v === undefined || v === null) return false;
    if (typeof v === 'boolean') return v;
    if (v === 'true' || v === 'false') return v === 'true';
    throw this.fail(where, 'must be true or false');
  }

  /** The `key` mapping of the entry of `section` called `name` (kubeconfig's named lists). */
  named(doc: YamlMap, section: string, name: string, key: string): YamlMap {
    const entry = this.list(doc[section], section).find((e, i) => this.text(this.map(e, `${section}[${i}]`)?.['name'], `${section}[${i}].name`) === name);
    if (entry === undefined) throw this.fail(section, `has no entry named ${JSON.stringify(name)}`);
    return this.map(this.map(entry, section)?.[key], `${section}[${name}].${key}`) ?? {};
  }
}

/** The files one load read, in order, with their bytes: the kubeconfig first. */
type FilesRead = [file: string, bytes: Buffer][];

function readFile(file: string, what: string, kubeconfig: string, read: FilesRead): Buffer {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new KubeconfigError(`kubeconfig ${kubeconfig}: cannot read the ${what} file ${file} (${fileErrorCode(err)})`);
  }
  read.push([file, bytes]);
  return bytes;
}

function readKubeconfigBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new KubeconfigError(`cannot read kubeconfig ${path} (${fileErrorCode(err)})`);
  }
}

function parseFile(path: string, text: string): YamlMap {
  let doc: YamlValue;
  try {
    doc = parseMiniYaml(text);
  } catch (err) {
    // The line number and a fixed description only: YAML libraries quote the lines around an error.
    if (err instanceof MiniYamlError) throw new KubeconfigError(`kubeconfig ${path}: unsupported YAML at line ${err.line} (${err.problem})`);
    throw new KubeconfigError(`kubeconfig ${path}: cannot be parsed`);
  }
  return new Fields(path).map(doc, 'the document') ?? {};
}

/** The last load, with every file it read: reused while each of them reads the same bytes. */
let lastLoad: { readonly path: string; readonly read: FilesRead; readonly load: KubeconfigLoad } | undefined;

/**
 * The current context of one kubeconfig file (design/ipam-datastore.md, "Kubernetes backend:
 * kubeconfig loading"). Relative file paths resolve against the kubeconfig's directory. The files
 * are read on every call; when the kubeconfig and every file it names (certificates, key, token file)
 * read the same bytes as at the last load of the same path, that load is returned instead of being
 * parsed again: a plugin call's pod reader and datastore load the same kubeconfig a millisecond apart
 * (design/ipam-datastore.md, "One kubeconfig parse per process"). The load is shared: never change it.
 */
export function readKubeconfigFile(path: string): KubeconfigLoad {
  const bytes = readKubeconfigBytes(path);
  const last = lastLoad;
  if (last !== undefined && last.path === path && sameFiles(last.read, path, bytes)) return last.load;
  const read: FilesRead = [[path, bytes]];
  const load = parseKubeconfig(path, bytes.toString('utf8'), read);
  lastLoad = { path, read, load };
  return load;
}

/** True when the kubeconfig's bytes and those of every other file the last load read are unchanged. */
function sameFiles(read: FilesRead, path: string, bytes: Buffer): boolean {
  return read.every(([file, before], i) => {
    if (i === 0) return file === path && before.equals(bytes);
    try {
      return before.equals(readFileSync(file));
    } catch {
      return false;
    }
  });
}

function parseKubeconfig(path: string, text: string, read: FilesRead): KubeconfigLoad {
  const doc = parseFile(path, text);
  const f = new Fields(path);
  const contextName = f.text(doc['current-context'], 'current-context');
  if (contextName === undefined) throw f.fail('current-context', 'is not set');
  const context = f.named(doc, 'contexts', contextName, 'context');
  const clusterName = f.text(context['cluster'], `context ${contextName}: cluster`);
  if (clusterName === undefined) throw f.fail(`context ${contextName}`, 'names no cluster');
  const userName = f.text(context['user'], `context ${contextName}: user`);
  const cluster = f.named(doc, 'clusters', clusterName, 'cluster');
  const user = userName === undefined ? {} : f.named(doc, 'users', userName, 'user');

  if (f.map(user['exec'], 'user.exec') !== undefined) return { type: 'credential-plugin', path, mechanism: 'exec' };
  if (f.map(user['auth-provider'], 'user.auth-provider') !== undefined) return { type: 'credential-plugin', path, mechanism: 'auth-provider' };

  const server = f.text(cluster['server'], `cluster ${clusterName}: server`);
  if (server === undefined) throw f.fail(`cluster ${clusterName}`, 'has no server');
  const base = dirname(path);
  const fileOf = (name: string): string => (isAbsolute(name) ? name : resolve(base, name));
  const material = (section: YamlMap, key: string, where: string): Buffer | undefined => {
    const data = f.text(section[`${key}-data`], `${where}: ${key}-data`);
    if (data !== undefined) return Buffer.from(data, 'base64');
    const file = f.text(section[key], `${where}: ${key}`);
    return file === undefined ? undefined : readFile(fileOf(file), key, path, read);
  };

  const token = f.text(user['token'], `user ${userName ?? ''}: token`);
  const tokenFile = f.text(user['tokenFile'], `user ${userName ?? ''}: tokenFile`);
  const username = f.text(user['username'], `user ${userName ?? ''}: username`);
  const password = f.text(user['password'], `user ${userName ?? ''}: password`);
  const tlsServerName = f.text(cluster['tls-server-name'], `cluster ${clusterName}: tls-server-name`);
  const ca = material(cluster, 'certificate-authority', `cluster ${clusterName}`);
  const cert = material(user, 'client-certificate', `user ${userName ?? ''}`);
  const key = material(user, 'client-key', `user ${userName ?? ''}`);
  if ((cert === undefined) !== (key === undefined)) throw f.fail(`user ${userName ?? ''}`, 'needs both client-certificate and client-key');
  const connection: KubeConnection = {
    server: server.replace(/\/+$/, ''),
    insecure: f.flag(cluster['insecure-skip-tls-verify'], `cluster ${clusterName}: insecure-skip-tls-verify`),
    source: path,
    ...definedFields({ token, username, password, tlsServerName, ca, cert, key }),
    // Read now so that a missing file fails at load, naming it; kept to be re-read as it rotates.
    ...(token === undefined && tokenFile !== undefined ? { tokenFile: fileOf(tokenFile), token: readFile(fileOf(tokenFile), 'tokenFile', path, read).toString('utf8').trim() } : {}),
  };
  return { type: 'connection', connection };
}
