import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Isolates fixture commits from the machine's git configuration (signing, hooks, templates). */
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Fixture',
  GIT_AUTHOR_EMAIL: 'fixture@example.invalid',
  GIT_COMMITTER_NAME: 'Fixture',
  GIT_COMMITTER_EMAIL: 'fixture@example.invalid',
};

/** A throw-away git repository under the OS temp dir. */
export class GitFixture {
  private constructor(readonly dir: string) {}

  static create(): GitFixture {
    const fixture = new GitFixture(mkdtempSync(join(tmpdir(), 'ipamkit-design-sync-')));
    fixture.git('init', '--quiet', '--initial-branch=main');
    return fixture;
  }

  git(...args: string[]): string {
    return execFileSync('git', args, { cwd: this.dir, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }

  write(files: Record<string, string>): this {
    for (const [path, content] of Object.entries(files)) {
      const target = join(this.dir, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
    return this;
  }

  /** Stages everything and commits; returns the new commit's sha. */
  commit(message: string): string {
    this.git('add', '--all');
    this.git('commit', '--quiet', '--no-verify', '-m', message);
    return this.git('rev-parse', 'HEAD').trim();
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
