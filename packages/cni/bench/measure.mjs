// How the bench times one plugin call (design/cni.md, "Start-up cost"):
// - wall: hrtime around an asynchronous spawn until the child has exited (asynchronous, so that the
//   Kubernetes API test server in this process keeps answering);
// - CPU: user+sys of reaped children, from cutime+cstime in /proc/self/stat (the kernel's wait4
//   rusage, in 10 ms ticks), summed over a series and divided by its length;
// - peak RSS: GNU time's %M (ru_maxrss of wait4) in a separate pass, so that no wrapper process sits
//   in the timed calls.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const TICK_MS = 10;
export const GNU_TIME = '/usr/bin/time';

/** cutime + cstime of this process, in clock ticks. */
export function childCpuTicks() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return Number(fields[13]) + Number(fields[14]);
}

/** Spawns, feeds stdin, waits for exit; resolves with wall ms, exit code and output. */
export function run(command, args, env, stdin) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin ?? '');
  });
}

/** A named series of calls: wall times and the CPU ticks they used. */
export class Series {
  constructor(name) {
    this.name = name;
    this.ms = [];
    this.ticks = 0;
  }

  /** Runs one call, checks it succeeded, records wall and CPU. */
  async time(command, args, env, stdin) {
    const ticks = childCpuTicks();
    const r = await run(command, args, env, stdin);
    this.ticks += childCpuTicks() - ticks;
    if (r.code !== 0) throw new Error(`${this.name} failed (exit ${r.code}): ${r.stdout}${r.stderr}`.slice(0, 2000));
    this.ms.push(r.ms);
    return r;
  }

  get median() {
    return median(this.ms);
  }

  get p95() {
    const s = [...this.ms].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))];
  }

  get cpuMs() {
    return (this.ticks * TICK_MS) / Math.max(1, this.ms.length);
  }
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Peak RSS (MB) of one call, from GNU time's %M; throws if the call fails. */
export async function peakRssMb(command, args, env, stdin) {
  const r = await run(GNU_TIME, ['-f', 'IPAMKIT_MAXRSS_KB=%M', command, ...args], env, stdin);
  const kb = /IPAMKIT_MAXRSS_KB=(\d+)/.exec(r.stderr)?.[1];
  if (r.code !== 0 || kb === undefined) throw new Error(`${command} failed under ${GNU_TIME} (exit ${r.code}): ${r.stdout}${r.stderr}`.slice(0, 2000));
  return Number(kb) / 1024;
}
