// Reads and checks a package's sea.config.json (design/README.md, "Single executables"): what its
// single executable is made of. The deploy test reads the same files' name and sqliteAddon.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @typedef {object} SeaConfig
 * @property {string} name the executable's file name under dist/
 * @property {string} main the script the executable runs, relative to the package
 * @property {Record<string, string>} assets asset name to file, relative to the package
 * @property {boolean} sqliteAddon whether better_sqlite3.node goes beside the executable
 * @property {boolean} useCodeCache Node's own code cache of `main`'s top level
 * @property {string | undefined} prepare a script run after the addon copy and before the blob (cni's code-cache training)
 * @property {{ asset: string, script: string, alignment: number } | undefined} align an asset that must start on an `alignment`-byte boundary: `script <start modulo alignment>` writes it for where it lands, at one length
 * @property {{ args: string[], env: Record<string, string>, stderrIncludes?: string, failure?: string }} check the smoke run after the build: must exit 0
 */

/** @returns {SeaConfig} the settings in `<packageDir>/sea.config.json` */
export function readSeaConfig(packageDir) {
  const file = join(packageDir, 'sea.config.json');
  const raw = JSON.parse(readFileSync(file, 'utf8'));
  const fail = (why) => {
    throw new Error(`${file}: ${why}`);
  };
  if (typeof raw.name !== 'string' || !/^[a-z][a-z0-9-]*$/.test(raw.name)) fail('name must be a file name');
  if (typeof raw.main !== 'string') fail('main must be a path');
  const assets = raw.assets ?? {};
  if (typeof assets !== 'object' || Object.values(assets).some((v) => typeof v !== 'string')) fail('assets must map names to paths');
  const check = raw.check ?? { args: ['--version'] };
  if (!Array.isArray(check.args)) fail('check.args must be a list');
  const align = raw.align;
  if (align !== undefined && (typeof align.asset !== 'string' || typeof align.script !== 'string' || !Number.isInteger(align.alignment) || align.alignment < 2)) {
    fail('align must name an asset, the script that writes it, and an alignment of 2 or more bytes');
  }
  return {
    name: raw.name,
    main: raw.main,
    assets,
    sqliteAddon: raw.sqliteAddon === true,
    useCodeCache: raw.useCodeCache !== false,
    prepare: raw.prepare,
    align,
    check: { args: check.args, env: check.env ?? {}, stderrIncludes: check.stderrIncludes, failure: check.failure },
  };
}
