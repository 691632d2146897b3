import { IncompatibleVersionError } from '../errors.js';

/** The CNI spec versions this plugin speaks (issue 4: 0.3.0 to 1.1.0). */
export const SUPPORTED_VERSIONS = ['0.3.0', '0.3.1', '0.4.0', '1.0.0', '1.1.0'] as const;
export type CniVersion = (typeof SUPPORTED_VERSIONS)[number];

/** The version VERSION reports as its own. */
export const PLUGIN_CNI_VERSION: CniVersion = '1.1.0';

export function isSupportedVersion(v: string): v is CniVersion {
  return (SUPPORTED_VERSIONS as readonly string[]).includes(v);
}

/** Orders two semver-like `a.b.c` strings; non-numeric parts compare as 0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((p) => Number.parseInt(p, 10) || 0);
  const pb = b.split('.').map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The version a request is answered in: the config's `cniVersion`, or else the highest version of
 * the 1.1 `cniVersions` list we speak. An empty version means 0.1.0 in the CNI library, which we
 * do not speak.
 */
export function negotiateVersion(cniVersion: string | undefined, cniVersions: readonly string[]): CniVersion {
  const requested = cniVersion ?? '';
  if (requested === '' && cniVersions.length > 0) {
    const best = cniVersions.filter(isSupportedVersion).sort(compareVersions).at(-1);
    if (best !== undefined) return best;
    throw new IncompatibleVersionError('incompatible CNI versions', `config supports ${JSON.stringify(cniVersions)}, plugin supports ${JSON.stringify(SUPPORTED_VERSIONS)}`);
  }
  const effective = requested === '' ? '0.1.0' : requested;
  if (!isSupportedVersion(effective)) {
    throw new IncompatibleVersionError('incompatible CNI versions', `config is ${JSON.stringify(effective)}, plugin supports ${JSON.stringify(SUPPORTED_VERSIONS)}`);
  }
  return effective;
}

/** CHECK needs 0.4.0, STATUS and GC need 1.1.0 (design/calico-callers.md#cni-versions). */
export function requireVersionFor(verb: 'CHECK' | 'STATUS' | 'GC', version: CniVersion): void {
  const minimum = verb === 'CHECK' ? '0.4.0' : '1.1.0';
  if (compareVersions(version, minimum) < 0) throw new IncompatibleVersionError(`config version does not allow ${verb}`);
}
