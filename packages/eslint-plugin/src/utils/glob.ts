/**
 * A small glob matcher for the path options of our rules and for design/README.md's "applies to"
 * column. Supports `**`, `*`, `?` and `{a,b}`; paths use forward slashes.
 */
export function globToRegExpSource(glob: string): string {
  let out = '';
  let i = 0;
  while (i < glob.length) {
    const ch = glob.charAt(i);
    if (ch === '*') {
      if (glob.charAt(i + 1) === '*') {
        // `**/` matches zero or more whole segments; a trailing `**` matches everything below.
        if (glob.charAt(i + 2) === '/') {
          out += '(?:[^/]*/)*';
          i += 3;
        } else {
          out += '.*';
          i += 2;
        }
        continue;
      }
      out += '[^/]*';
    } else if (ch === '?') {
      out += '[^/]';
    } else if (ch === '{') {
      const end = glob.indexOf('}', i);
      if (end === -1) {
        out += '\\{';
      } else {
        const alternatives = glob.slice(i + 1, end).split(',').map(globToRegExpSource);
        out += `(?:${alternatives.join('|')})`;
        i = end;
      }
    } else {
      out += ch.replace(/[.+^$|()[\]\\]/g, '\\$&');
    }
    i += 1;
  }
  return out;
}

/** True when `path` (relative to the repository root) matches `glob` exactly. */
export function matchesGlob(path: string, glob: string): boolean {
  return new RegExp(`^${globToRegExpSource(glob)}$`).test(toPosix(path));
}

/**
 * True when some trailing run of whole segments of `filename` matches `glob`. ESLint hands rules
 * absolute paths and may run from any package directory, so a glob written relative to the
 * repository root (`packages/gc/src/**`) is matched against every suffix of the path.
 */
export function filenameMatchesGlob(filename: string, glob: string): boolean {
  const source = globToRegExpSource(glob.replace(/^\.?\//, ''));
  return new RegExp(`(?:^|/)${source}$`).test(toPosix(filename));
}

export function filenameMatchesAny(filename: string, globs: readonly string[]): boolean {
  return globs.some((glob) => filenameMatchesGlob(filename, glob));
}

export function toPosix(path: string): string {
  return path.replace(/\\/g, '/');
}
