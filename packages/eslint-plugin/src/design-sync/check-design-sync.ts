import { matchesGlob } from '../utils/glob.js';
import { type DesignEntry } from './design-table.js';
import { type ChangesetExemption, type ExemptionKind } from './exemptions.js';

/** One commit of the range, as the check needs it. */
export interface RangeCommit {
  sha: string;
  subject: string;
  files: string[];
  exemptions: ExemptionKind[];
}

export interface DesignSyncInput {
  entries: DesignEntry[];
  /** Files the range changes (net diff between base and head). */
  changedFiles: string[];
  commits: RangeCommit[];
  changesets: ChangesetExemption[];
}

export type PackageVerdict =
  | { package: string; outcome: 'untouched' }
  | { package: string; outcome: 'documented'; designDoc: string }
  | { package: string; outcome: 'exempt'; via: string[] }
  | { package: string; outcome: 'violation'; designDoc: string; files: string[]; unexemptedCommits: string[] };

export interface DesignSyncResult {
  ok: boolean;
  verdicts: PackageVerdict[];
}

/**
 * Decides, per package of the design table, whether the range keeps its design doc in sync: either
 * it changes nothing under the package's globs, or it touches the doc, or it declares an exemption.
 * A changeset exemption covers the packages it names (all, if it names none); a trailer covers the
 * files of its own commit, so every commit that touches the package must carry one.
 */
export function checkDesignSync(input: DesignSyncInput): DesignSyncResult {
  const changed = new Set(input.changedFiles);
  const verdicts = input.entries.map((entry): PackageVerdict => {
    const inPackage = (file: string): boolean => entry.appliesTo.some((glob) => matchesGlob(file, glob));
    const files = input.changedFiles.filter(inPackage);
    if (files.length === 0) return { package: entry.package, outcome: 'untouched' };
    if (changed.has(entry.designDoc)) return { package: entry.package, outcome: 'documented', designDoc: entry.designDoc };

    const changesets = input.changesets.filter(
      (c) => c.kinds.length > 0 && (c.packages.length === 0 || c.packages.includes(entry.package)),
    );
    if (changesets.length > 0) {
      return { package: entry.package, outcome: 'exempt', via: changesets.map((c) => `${c.path} (${c.kinds.join(', ')})`) };
    }
    const touching = input.commits.filter((c) => c.files.some(inPackage));
    const unexempted = touching.filter((c) => c.exemptions.length === 0);
    if (touching.length > 0 && unexempted.length === 0) {
      return {
        package: entry.package,
        outcome: 'exempt',
        via: touching.map((c) => `${c.sha.slice(0, 12)} (${c.exemptions.join(', ')})`),
      };
    }
    return {
      package: entry.package,
      outcome: 'violation',
      designDoc: entry.designDoc,
      files,
      unexemptedCommits: unexempted.map((c) => `${c.sha.slice(0, 12)} ${c.subject}`),
    };
  });
  return { ok: verdicts.every((v) => v.outcome !== 'violation'), verdicts };
}
