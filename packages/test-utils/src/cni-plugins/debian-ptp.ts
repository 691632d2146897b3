import { execFileSync, spawn } from 'node:child_process';

/** Debian's `ptp` CNI plugin (package containernetworking-plugins). */
export const DEBIAN_PTP = '/usr/lib/cni/ptp';

export interface PluginExit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs Debian's ptp the way a runtime does: the network config on stdin, `CNI_*` in the
 * environment (this process's, without NODE_EXTRA_CA_CERTS, plus `env`). Killed after a minute.
 */
export function runDebianPtp(env: Record<string, string>, stdin: string): Promise<PluginExit> {
  return new Promise((resolve, reject) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
    delete childEnv.NODE_EXTRA_CA_CERTS;
    const child = spawn(DEBIAN_PTP, [], { env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.end(stdin);
  });
}

/** The IPv4 addresses (`a.b.c.d/len`) of `eth0` inside network namespace `netns`, read with `ip -j`. */
export function eth0Ipv4Addresses(netns: string): string[] {
  const text = execFileSync('ip', ['-n', netns, '-j', 'addr', 'show'], { encoding: 'utf8' });
  const links = JSON.parse(text) as { ifname: string; addr_info: { family: string; local: string; prefixlen: number }[] }[];
  return links.filter((l) => l.ifname === 'eth0').flatMap((l) => l.addr_info.filter((a) => a.family === 'inet').map((a) => `${a.local}/${a.prefixlen}`));
}
