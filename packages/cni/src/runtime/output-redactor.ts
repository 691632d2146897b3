import { homedir } from 'node:os';
import { join } from 'node:path';
import { datastoreSecrets, redactSecrets, type DatastoreOverrides } from '@ipamkit/ipam-datastore';
import type { NetConf } from '../config/net-config.js';
import { netconfDatastoreOverrides } from '../config/datastore-config.js';

/** Text as it may leave the plugin: on stdout (error JSON), stderr or the log file. */
export type Redact = (text: string) => string;

/**
 * The redaction of one CNI call's output (design/cni.md, "Redaction"). The secrets it knows are the
 * call's own: `ETCD_PASSWORD`, the credentials in the kubeconfig the netconf or the environment
 * names (else `~/.kube/config`, which the plugin falls back to), and the netconf's
 * `policy.k8s_auth_token`. They are gathered lazily, on the first line or
 * error written, and again once the netconf is known and once the call reaches for the Kubernetes
 * API: a call that writes nothing never reads the kubeconfig a second time.
 */
export class OutputRedactor {
  private conf: NetConf | undefined;
  private kubernetes = false;
  private secrets: readonly string[] | undefined;

  constructor(private readonly env: Readonly<Record<string, string | undefined>>) {}

  /** The parsed netconf: its credential keys join the known secrets. */
  knowNetConf(conf: NetConf): void {
    this.conf = conf;
    this.secrets = undefined;
  }

  /** The call opens the Kubernetes datastore or reads from the API: it may fall back to `~/.kube/config`. */
  knowKubernetesAccess(): void {
    if (this.kubernetes) return;
    this.kubernetes = true;
    this.secrets = undefined;
  }

  readonly redact: Redact = (text) => redactSecrets(text, this.knownSecrets());

  private knownSecrets(): readonly string[] {
    if (this.secrets !== undefined) return this.secrets;
    const conf = this.conf;
    const overrides: DatastoreOverrides = conf === undefined ? {} : netconfDatastoreOverrides(conf);
    const named = (overrides.kubeconfig ?? this.env['KUBECONFIG'] ?? '') !== '';
    // Without HOME, finding the fallback loads node:os and asks the user database: only for a call
    // that may read it, as the plugin itself only does then (design/cni.md, "Redaction").
    const home = named ? undefined : (this.env['HOME'] ?? (conf === undefined || this.kubernetes ? homedir() : undefined));
    const found = datastoreSecrets(this.env, home === undefined ? overrides : { ...overrides, kubeconfig: join(home, '.kube', 'config') });
    const token = conf?.policy.k8sAuthToken;
    if (token !== undefined && token !== '') found.push(token);
    this.secrets = found;
    return found;
  }
}
