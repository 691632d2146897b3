import { execFileSync } from 'node:child_process';
import { GitCommandError } from '../errors.js';

/** git's well-known empty tree: the base of a range that starts at the first commit. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** A thin, synchronous git runner (the check is a one-shot command). */
export class Git {
  constructor(readonly cwd: string) {}

  run(args: string[]): string {
    try {
      return execFileSync('git', args, {
        cwd: this.cwd,
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      const stderr = (error as { stderr?: unknown }).stderr;
      throw new GitCommandError(args, typeof stderr === 'string' ? stderr : String(error));
    }
  }

  /** The full sha of a revision, or undefined when it does not exist. */
  tryResolve(rev: string): string | undefined {
    try {
      return this.run(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]).trim() || undefined;
    } catch {
      return undefined;
    }
  }

  currentBranch(): string {
    return this.run(['rev-parse', '--abbrev-ref', 'HEAD']).trim();
  }

  mergeBase(a: string, b: string): string | undefined {
    try {
      return this.run(['merge-base', a, b]).trim() || undefined;
    } catch {
      return undefined;
    }
  }

  /** Paths the range changes, renames split into delete + add so both sides count. */
  changedFiles(base: string, head: string): string[] {
    return this.run(['diff', '--name-only', '--no-renames', '-z', base, head]).split('\0').filter(Boolean);
  }

  /** Changed paths with their status letter (A, M, D, ...). */
  changedWithStatus(base: string, head: string): { status: string; path: string }[] {
    const parts = this.run(['diff', '--name-status', '--no-renames', '-z', base, head]).split('\0').filter(Boolean);
    const out: { status: string; path: string }[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) out.push({ status: parts[i] ?? '', path: parts[i + 1] ?? '' });
    return out;
  }

  /** Non-merge commits in the range with their full message and files. */
  commits(base: string, head: string): { sha: string; message: string; files: string[] }[] {
    const range = base === EMPTY_TREE ? [head] : [`${base}..${head}`];
    const raw = this.run(['log', '--no-merges', '--no-renames', '--format=%x1e%H%x1f%B%x1f', '--name-only', ...range]);
    return raw
      .split('\x1e')
      .filter((chunk) => chunk.trim() !== '')
      .map((chunk) => {
        const [sha = '', message = '', files = ''] = chunk.split('\x1f');
        return { sha: sha.trim(), message, files: files.split('\n').map((f) => f.trim()).filter(Boolean) };
      });
  }

  /** Every file of the working tree git would commit: tracked ones plus untracked, unignored ones. */
  workingTreeFiles(): string[] {
    return this.run(['ls-files', '-z', '--cached', '--others', '--exclude-standard']).split('\0').filter(Boolean);
  }

  /** A file's content at a revision, or undefined when it does not exist there. */
  show(rev: string, path: string): string | undefined {
    try {
      return this.run(['show', `${rev}:${path}`]);
    } catch {
      return undefined;
    }
  }
}
