import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runIpamCommand } from '../src/index.js';
import { Sink } from './fixtures.js';

/** The built plugin (cli does not import cni; nx builds it first through the devDependency). */
export const CNI_DIST = fileURLToPath(new URL('../../cni/dist', import.meta.url));

export function assertPluginBuilt(): void {
  for (const name of ['calico-ipam', 'better_sqlite3.node']) {
    if (!existsSync(`${CNI_DIST}/${name}`)) {
      throw new Error(`${CNI_DIST}/${name} is missing: build the plugin first (npx nx run @ipamkit/cni:build)`);
    }
  }
}

export interface InstallRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `ipamkit install-cni <args>` in-process, with only the given environment. */
export async function runInstallCni(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<InstallRun> {
  const stdout = new Sink();
  const stderr = new Sink();
  const code = await runIpamCommand(args, { stdout, stderr, env });
  return { code, stdout: stdout.text, stderr: stderr.text };
}
