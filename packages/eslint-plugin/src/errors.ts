/**
 * Errors of the design-sync check. The plugin does not depend on @ipamkit/models (it sits outside the
 * layers it polices), so these extend Error directly, grouped like the repository's taxonomy: both
 * are validation errors (bad input the user must fix); neither is worth retrying.
 */
export class DesignSyncError extends Error {
  override name = 'DesignSyncError';
}

/** design/README.md, a changeset or a trailer does not say what the check needs. */
export class DesignTableError extends DesignSyncError {
  override name = 'DesignTableError';
  constructor(
    message: string,
    readonly source: string,
  ) {
    super(`${source}: ${message}`);
  }
}

/** A git command failed (bad revision, not a repository). */
export class GitCommandError extends DesignSyncError {
  override name = 'GitCommandError';
  constructor(
    readonly args: readonly string[],
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed: ${stderr.trim() || 'no output'}`);
  }
}

/** The API report check could not read a package: a missing build, a bad package.json. */
export class ApiReportError extends Error {
  override name = 'ApiReportError';
}
