import type { CliIo } from '../cli-io.js';
import { leafCommand, type CommandSpec } from '../command-line/command-spec.js';
import { datastoreConfigFromFlags, type DatastoreFlags } from '../open-datastore.js';
import {
  DEFAULT_BIN_DIR,
  DEFAULT_CONFLIST_NAME,
  DEFAULT_NET_DIR,
  DEFAULT_SERVICE_ACCOUNT_DIR,
  defaultNodeName,
  installCni,
  renderInstallCni,
} from './install-cni.js';

interface InstallCniFlags extends DatastoreFlags {
  readonly binDir: string;
  readonly netDir: string;
  readonly pluginDir?: string;
  readonly serviceAccountDir: string;
  readonly conflistName: string;
  readonly nodeName?: string;
}

/**
 * `ipamkit install-cni` (design/cli.md, "install-cni"): runs in its action, since only SQLite needs
 * a datastore and the runner's datastore-opening path is for the IPAM commands.
 */
export function installCniCommand(io: CliIo): CommandSpec {
  return leafCommand<InstallCniFlags>({
    name: 'install-cni',
    description: 'install the calico-ipam plugin, its kubeconfig and conflist on this host (the DaemonSet init step)',
    options: [
      { flags: '--bin-dir <dir>', description: 'CNI bin directory', default: DEFAULT_BIN_DIR },
      { flags: '--net-dir <dir>', description: 'CNI network config directory', default: DEFAULT_NET_DIR },
      { flags: '--plugin-dir <dir>', description: 'where calico-ipam and better_sqlite3.node come from (default: IPAMKIT_PLUGIN_DIR, else dist/ of the installed @ipamkit/cni)' },
      { flags: '--service-account-dir <dir>', description: 'the token and ca.crt the CNI kubeconfig is written from', default: DEFAULT_SERVICE_ACCOUNT_DIR },
      { flags: '--conflist-name <name>', description: 'the conflist to write or patch in the net dir', default: DEFAULT_CONFLIST_NAME },
      { flags: '--node-name <name>', description: 'this node (default: NODENAME, else the hostname)' },
    ],
    run: async (flags) => {
      const env = io.env ?? process.env;
      const result = await installCni({
        binDir: flags.binDir,
        netDir: flags.netDir,
        ...(flags.pluginDir === undefined ? {} : { pluginDir: flags.pluginDir }),
        serviceAccountDir: flags.serviceAccountDir,
        conflistName: flags.conflistName,
        nodeName: flags.nodeName ?? defaultNodeName(env),
        datastore: datastoreConfigFromFlags(flags, env),
        env,
      });
      io.stdout.write(renderInstallCni(result));
    },
  });
}
