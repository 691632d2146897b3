import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ApiReportError } from '../errors.js';
import { collectSurfaces } from './collect-surface.js';
import { exportStarLines } from './export-star.js';
import { publicPackages } from './package-entries.js';
import { renderReport } from './render-report.js';

export const UPDATE_COMMAND = 'npm run api:update';

export interface ApiReportOptions {
  /** The repository root (the folder holding `packages/`). */
  root: string;
  /** Write the reports instead of comparing them. */
  update: boolean;
}

/** 0: reports match (or were written); 1: a report is stale or an index uses `export *`; 2: could not run. */
export interface ApiReportResult {
  exitCode: 0 | 1 | 2;
  lines: string[];
}

/** Where a package's committed report lives, relative to the repository root. */
export function reportPath(folder: string): string {
  return join('packages', folder, 'api', `${folder}.api.md`);
}

/**
 * Checks (or, with `update`, rewrites) `packages/<pkg>/api/<pkg>.api.md` for every public package from
 * its built `dist/*.d.ts`, and that no `packages/*\/src/index.ts` re-exports with `export *`.
 * See design/README.md, "API reports".
 */
export function runApiReport(options: ApiReportOptions): ApiReportResult {
  const lines: string[] = [];
  try {
    const starsOk = checkNoExportStar(options.root, lines);
    let reportsOk = true;
    const packages = publicPackages(options.root);
    const all = packages.flatMap((pkg) => pkg.entries.map((e) => ({ dts: e.dts, packageDir: pkg.dir, pkg: pkg.name })));
    for (const e of all) {
      if (!existsSync(e.dts)) throw new ApiReportError(`${relative(options.root, e.dts)} not found: build ${e.pkg} first`);
    }
    const surfaces = collectSurfaces(all);
    let next = 0;
    for (const pkg of packages) {
      const entries = pkg.entries.map((e) => ({ subpath: e.subpath, names: surfaces[next++] ?? [] }));
      const report = renderReport(pkg.name, entries);
      const path = reportPath(pkg.folder);
      const file = join(options.root, path);
      const counts = entries.map((e) => `${e.subpath} ${e.names.length}`).join(', ');
      if (options.update) {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, report);
        lines.push(`  wrote ${path} (${counts})`);
      } else if (!existsSync(file) || readFileSync(file, 'utf8') !== report) {
        reportsOk = false;
        lines.push(`  FAIL  ${pkg.name}: ${path} ${existsSync(file) ? 'differs from' : 'is missing for'} the built surface (${counts})`);
      } else {
        lines.push(`  ok    ${pkg.name} (${counts})`);
      }
    }
    if (!reportsOk) {
      lines.push(`  The public surface changed: run \`${UPDATE_COMMAND}\` after building and commit the reports with the change.`);
    }
    return { exitCode: starsOk && reportsOk ? 0 : 1, lines: [`api-report: ${options.update ? 'update' : 'check'}`, ...lines] };
  } catch (error) {
    if (!(error instanceof ApiReportError)) throw error;
    return { exitCode: 2, lines: [...lines, `api-report: ${error.message}`] };
  }
}

function checkNoExportStar(root: string, lines: string[]): boolean {
  const packagesDir = join(root, 'packages');
  if (!existsSync(packagesDir)) throw new ApiReportError(`${packagesDir} not found`);
  let ok = true;
  for (const folder of readdirSync(packagesDir).sort()) {
    const index = join(packagesDir, folder, 'src', 'index.ts');
    if (!existsSync(index)) continue;
    for (const line of exportStarLines(index, readFileSync(index, 'utf8'))) {
      ok = false;
      lines.push(`  FAIL  ${relative(root, index)}:${line}: \`export *\` hides the contract; name each export`);
    }
  }
  return ok;
}
