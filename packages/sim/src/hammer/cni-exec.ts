import { spawn } from 'node:child_process';
import { type CniCall, cniEnv } from '../run/cni-call.js';

/** One CNI call as kubelet makes it: the plugin executable, env for the arguments, config on stdin. */
export interface CniExecCall extends CniCall {
  /** SIGKILL the plugin this many ms after it starts; undefined lets it finish. */
  readonly killAfterMs: number | undefined;
}

export type CniExecOutcome = { readonly killed: false; readonly exitCode: number; readonly stdout: string } | { readonly killed: true };

/** Spawns `node calico-ipam.cjs` for one call and waits for it (design/sim.md, "All callers"). */
export function execCni(bin: string, call: CniExecCall): Promise<CniExecOutcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin], {
      env: { ...process.env, ...cniEnv(call) },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const out: Buffer[] = [];
    let killed = false;
    const timer = call.killAfterMs === undefined ? undefined : setTimeout(() => {
      killed = child.kill('SIGKILL');
    }, call.killAfterMs);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stdin.on('error', () => undefined);
    child.once('error', () => resolve({ killed: true }));
    child.once('close', (code, signal) => {
      if (timer !== undefined) clearTimeout(timer);
      if (killed || signal === 'SIGKILL') resolve({ killed: true });
      else resolve({ killed: false, exitCode: code ?? 1, stdout: Buffer.concat(out).toString('utf8') });
    });
    child.stdin.end(call.netConf);
  });
}
