import { mkdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, parse, resolve, sep } from 'node:path';
import { echoInput } from '../config/input-limits.js';
import { CNI_CODES, CniError, NetworkConfigError } from '../errors.js';

/** Kernel file systems: nothing the plugin writes belongs there, and Node's recursive mkdir can spin on them. */
const KERNEL_FILESYSTEMS = ['/proc', '/sys'] as const;

/** Directories the plugin creates are private to root (design/cni.md, "Directories and file modes"). */
export const DIRECTORY_MODE = 0o700;
/** The lock and log files the plugin creates. */
export const FILE_MODE = 0o600;

/** The `code` of a failed system call's error (`ENOENT`, `EACCES`), never its message. */
export function errCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : undefined;
}

/**
 * The absolute path with the symbolic links of its longest existing prefix resolved, so that a link
 * into /proc is seen for what it is. Components that do not exist yet are kept as written. The
 * system's realpath(3) (`realpathSync.native`): Node's own walks the path in JavaScript, a function
 * a call compiles before its first use (design/cni.md, "Start-up cost").
 */
export function resolvedPath(path: string): string {
  const missing: string[] = [];
  let existing = resolve(path);
  for (;;) {
    try {
      return join(realpathSync.native(existing), ...missing.reverse());
    } catch (err) {
      const code = errCode(err);
      const parent = dirname(existing);
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === existing) return resolve(path);
      missing.push(basename(existing));
      existing = parent;
    }
  }
}

/** Refuses a resolved path under /proc or /sys with code 7, naming the netconf key. */
export function refuseKernelFilesystem(resolved: string, what: string): void {
  const under = KERNEL_FILESYSTEMS.find((fs) => resolved === fs || resolved.startsWith(`${fs}/`));
  if (under !== undefined) throw new NetworkConfigError(`${what} ${JSON.stringify(echoInput(resolved))} is under ${under}: choose a path on a real file system`);
}

/**
 * Creates `dir` one component at a time (mode 0700), checking that every component that already
 * exists is a directory: it cannot spin as `mkdirSync(…, { recursive: true })` does under /proc,
 * and a file in the way is a clear error. Returns the resolved directory.
 */
export function ensureDirectory(dir: string, what: string): string {
  const target = resolvedPath(dir);
  refuseKernelFilesystem(target, what);
  // The common case, on every call: the directory is there already. One stat, no walk; anything
  // else (missing, ENOTDIR, EACCES) is left to the walk, which names the component at fault.
  if (isExistingDirectory(target)) return target;
  const { root } = parse(target);
  let current = root;
  for (const part of target.slice(root.length).split(sep).filter((p) => p !== '')) {
    current = join(current, part);
    if (!isDirectory(current, what)) {
      try {
        mkdirSync(current, { mode: DIRECTORY_MODE });
      } catch (err) {
        if (errCode(err) !== 'EEXIST') throw new CniError(CNI_CODES.ioFailure, `${what}: cannot create directory ${JSON.stringify(echoInput(current))}: ${errCode(err) ?? 'error'}`);
      }
      if (!isDirectory(current, what)) throw notADirectory(current, what);
    }
  }
  return target;
}

function isExistingDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

function notADirectory(path: string, what: string): NetworkConfigError {
  return new NetworkConfigError(`${what}: ${JSON.stringify(echoInput(path))} exists and is not a directory`);
}

/** True for a directory, false when nothing is there; anything else in the way is an error. */
function isDirectory(path: string, what: string): boolean {
  try {
    if (statSync(path).isDirectory()) return true;
  } catch (err) {
    if (errCode(err) === 'ENOENT') return false;
    throw new CniError(CNI_CODES.ioFailure, `${what}: cannot read ${JSON.stringify(echoInput(path))}: ${errCode(err) ?? 'error'}`);
  }
  throw notADirectory(path, what);
}
