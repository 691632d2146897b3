import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { EtcdTlsFiles } from './etcd-certs.js';

/** Where Debian's `etcd-client` package puts etcdctl. */
export const DEFAULT_ETCDCTL_BINARY = '/usr/bin/etcdctl';
export const ETCD_ROOT_USER = 'root';

export interface EtcdCredentials {
  readonly username: string;
  readonly password: string;
}

/** Adds the root user (password fed on stdin, never on a command line) and turns authentication on. */
export function enableEtcdAuth(args: { etcdctl: string | undefined; endpoint: string; credentials: EtcdCredentials; tls: EtcdTlsFiles | undefined }): void {
  const etcdctl = args.etcdctl ?? DEFAULT_ETCDCTL_BINARY;
  if (!existsSync(etcdctl)) throw new Error(`etcdctl not found at ${etcdctl}: install it with "apt-get install etcd-client" (Debian/Ubuntu)`);
  const tls = args.tls === undefined ? [] : [`--cacert=${args.tls.caFile}`, `--cert=${args.tls.certFile}`, `--key=${args.tls.keyFile}`];
  const common = [`--endpoints=${args.endpoint}`, ...tls];
  const env = { ...process.env, ETCDCTL_API: '3' };
  const run = (argv: string[], input?: string): void => {
    try {
      execFileSync(etcdctl, [...common, ...argv], { env, stdio: ['pipe', 'ignore', 'pipe'], ...(input === undefined ? {} : { input }) });
    } catch (err) {
      // etcdctl's own message, without the input we gave it.
      const stderr = (err as { stderr?: Buffer }).stderr?.toString('utf8') ?? '';
      throw new Error(`etcdctl ${argv[0] ?? ''} ${argv[1] ?? ''} failed: ${stderr.split(args.credentials.password).join('<redacted>')}`);
    }
  };
  run(['user', 'add', args.credentials.username, '--interactive=false'], `${args.credentials.password}\n`);
  run(['auth', 'enable']);
}
