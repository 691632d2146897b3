import { DesignSyncError } from '../errors.js';
import { EMPTY_TREE, type Git } from './git.js';

export interface RangeRequest {
  base?: string | undefined;
  head?: string | undefined;
  /** The trunk branch (nx.json `defaultBase`). */
  mainBranch: string;
}

export type ResolvedRange =
  | { kind: 'range'; base: string; head: string; description: string }
  | { kind: 'empty'; reason: string };

/**
 * The commit range to check. Explicit `--base`/`--head` (the same values `nx affected` takes) win.
 * Otherwise: on the trunk, the last commit (`HEAD~1..HEAD`); on a branch, everything since its
 * merge-base with the trunk. A first commit is compared with the empty tree.
 */
export function resolveRange(git: Git, request: RangeRequest): ResolvedRange {
  const headRev = request.head ?? 'HEAD';
  const head = git.tryResolve(headRev);
  if (head === undefined) {
    if (request.head === undefined) return { kind: 'empty', reason: 'the repository has no commits yet' };
    throw new DesignSyncError(`head "${headRev}" is not a commit`);
  }
  if (request.base !== undefined) {
    const base = git.tryResolve(request.base);
    if (base === undefined) throw new DesignSyncError(`base "${request.base}" is not a commit`);
    return { kind: 'range', base, head, description: `${request.base}..${headRev}` };
  }
  const parentOrEmpty = (): ResolvedRange => {
    const parent = git.tryResolve(`${head}~1`);
    return parent === undefined
      ? { kind: 'range', base: EMPTY_TREE, head, description: `first commit ${headRev}` }
      : { kind: 'range', base: parent, head, description: `${headRev}~1..${headRev}` };
  };
  const onTrunk = request.head === undefined && git.currentBranch() === request.mainBranch;
  const trunk = git.tryResolve(request.mainBranch) ?? git.tryResolve(`origin/${request.mainBranch}`);
  if (onTrunk || trunk === undefined || trunk === head) return parentOrEmpty();
  const base = git.mergeBase(trunk, head);
  if (base === undefined) return parentOrEmpty();
  return { kind: 'range', base, head, description: `merge-base(${request.mainBranch}, ${headRev})..${headRev}` };
}
