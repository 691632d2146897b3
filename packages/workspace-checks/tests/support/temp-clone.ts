import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChecked, runCommand, type CommandResult } from './run-command.js';

/** The repository this package lives in. */
export const WORKSPACE_ROOT = join(import.meta.dirname, '..', '..', '..', '..');

/**
 * A `git clone` of the workspace's HEAD in a temp dir, with the workspace's installed dependencies
 * linked in rather than installed again. The clone's own packages are what `@ipamkit/*` resolves to,
 * so a rule changed and rebuilt in the clone is the rule the clone's lint loads.
 */
export class TempClone {
  private constructor(readonly dir: string) {}

  static async create(prefix: string): Promise<TempClone> {
    const parent = mkdtempSync(join(tmpdir(), `ipamkit-${prefix}-`));
    const dir = join(parent, 'repo');
    const head = (await runChecked('git', ['rev-parse', 'HEAD'], { cwd: WORKSPACE_ROOT })).trim();
    await runChecked('git', ['clone', '--quiet', '--no-checkout', WORKSPACE_ROOT, dir], { cwd: parent });
    // HEAD itself, which a CI checkout may hold detached and on no branch the clone copied.
    await runChecked('git', ['fetch', '--quiet', WORKSPACE_ROOT, 'HEAD'], { cwd: dir });
    await runChecked('git', ['checkout', '--quiet', '--detach', head], { cwd: dir });
    const clone = new TempClone(dir);
    clone.linkDependencies();
    return clone;
  }

  /** Links every installed dependency except the workspace's own packages, which point into the clone. */
  private linkDependencies(): void {
    const installed = join(WORKSPACE_ROOT, 'node_modules');
    const linked = join(this.dir, 'node_modules');
    mkdirSync(join(linked, '@ipamkit'), { recursive: true });
    for (const entry of readdirSync(installed)) {
      if (entry !== '@ipamkit') symlinkSync(join(installed, entry), join(linked, entry));
    }
    for (const pkg of readdirSync(join(this.dir, 'packages'))) {
      symlinkSync(join('..', '..', 'packages', pkg), join(linked, '@ipamkit', pkg));
      const nested = join(WORKSPACE_ROOT, 'packages', pkg, 'node_modules');
      if (existsSync(nested)) symlinkSync(nested, join(this.dir, 'packages', pkg, 'node_modules'));
    }
  }

  path(relative: string): string {
    return join(this.dir, relative);
  }

  read(relative: string): string {
    return readFileSync(this.path(relative), 'utf8');
  }

  write(relative: string, content: string): void {
    writeFileSync(this.path(relative), content);
  }

  append(relative: string, content: string): void {
    appendFileSync(this.path(relative), content);
  }

  git(...args: string[]): Promise<string> {
    return runChecked('git', args, { cwd: this.dir });
  }

  /** Stages everything and commits; returns the new commit's sha. */
  async commit(message: string): Promise<string> {
    await this.git('add', '--all');
    await this.git('-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=/dev/null', 'commit', '--quiet', '--no-verify', '-m', message);
    return (await this.git('rev-parse', 'HEAD')).trim();
  }

  /**
   * Runs the workspace's nx (no daemon, no cloud) in the clone. Plugins run in nx's own process: the
   * graph is the same, without a worker process per plugin on every call.
   */
  nx(args: readonly string[], timeoutMs = 600_000): Promise<CommandResult> {
    return runCommand(process.execPath, [join(this.dir, 'node_modules', 'nx', 'dist', 'bin', 'nx.js'), ...args], {
      cwd: this.dir,
      env: { NX_ISOLATE_PLUGINS: 'false' },
      timeoutMs,
    });
  }

  remove(): void {
    rmSync(join(this.dir, '..'), { recursive: true, force: true });
  }
}
