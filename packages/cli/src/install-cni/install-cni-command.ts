import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
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
export function addInstallCniCommand(program: Command, io: CliIo): void {
  program
    .command('install-cni')
    .description('install the calico-ipam plugin, its kubeconfig and conflist on this host (the DaemonSet init step)')
    .option('--bin-dir <dir>', 'CNI bin directory', DEFAULT_BIN_DIR)
    .option('--net-dir <dir>', 'CNI network config directory', DEFAULT_NET_DIR)
    .option('--plugin-dir <dir>', 'where calico-ipam and better_sqlite3.node come from (default: IPAMKIT_PLUGIN_DIR, else dist/ of the installed @ipamkit/cni)')
    .option('--service-account-dir <dir>', 'the token and ca.crt the CNI kubeconfig is written from', DEFAULT_SERVICE_ACCOUNT_DIR)
    .option('--conflist-name <name>', 'the conflist to write or patch in the net dir', DEFAULT_CONFLIST_NAME)
    .option('--node-name <name>', 'this node (default: NODENAME, else the hostname)')
    .action(async (_options: unknown, command: Command) => {
      const flags = command.optsWithGlobals<InstallCniFlags>();
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
    });
}
