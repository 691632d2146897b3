import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACK_ALIGNMENT, packCodeCaches, packIndex } from '../scripts/pack-code-caches.mjs';
import { assertBinBuilt, SEA } from './helpers/spawn-bin.js';

const seaFile = (name: string): string => fileURLToPath(new URL(`../dist/sea/${name}`, import.meta.url));

// What the single executable carries besides its loader (design/cni.md, "Caches on 8-byte boundaries").
describe('the single executable assets', () => {
  beforeAll(() => assertBinBuilt());

  it('carries the bundle already inside the CommonJS wrapper, so the loader compiles the asset as it is', () => {
    const bundle = readFileSync(seaFile('calico-ipam.cjs'), 'latin1');
    const wrapped = readFileSync(seaFile('calico-ipam.wrapped.cjs'));
    expect(wrapped.toString('latin1')).toBe(Module.wrap(bundle));
    expect(readFileSync(SEA).indexOf(wrapped)).toBeGreaterThan(0);
  });

  it('places every code cache on an 8-byte boundary of the executable', () => {
    const pack = readFileSync(seaFile('calico-ipam.caches'));
    const image = readFileSync(SEA);
    const at = image.indexOf(pack);
    expect(at).toBeGreaterThan(0);
    expect(image.indexOf(pack, at + 1)).toBe(-1);
    const index = packIndex(pack);
    expect(Object.keys(index).sort()).toEqual(
      ['etcd', 'kubernetes', 'sqlite'].flatMap((ds) => [`calico-ipam.${ds}.add.cache`, `calico-ipam.${ds}.del.cache`]).sort(),
    );
    for (const [name, [offset, length]] of Object.entries(index)) {
      expect({ name, mod: (at + offset) % PACK_ALIGNMENT }).toEqual({ name, mod: 0 });
      // The bytes the training wrote, unchanged.
      expect(pack.subarray(offset, offset + length).equals(readFileSync(seaFile(name)))).toBe(true);
    }
  });
});

describe('packCodeCaches', () => {
  const caches = { a: Buffer.from('x'.repeat(13)), b: Buffer.from('yy'), c: Buffer.alloc(0), d: Buffer.from('z'.repeat(29)) };

  it.each([0, 1, 2, 3, 4, 5, 6, 7])('for a pack starting at %i modulo 8, puts each cache on a boundary, intact, at one length', (startMod) => {
    const pack = packCodeCaches(caches, startMod);
    expect(pack.length).toBe(packCodeCaches(caches, 0).length);
    const index = packIndex(pack);
    for (const [name, bytes] of Object.entries(caches)) {
      const [offset, length] = index[name] ?? [-1, -1];
      expect((startMod + offset) % PACK_ALIGNMENT).toBe(0);
      expect(pack.subarray(offset, offset + length).equals(bytes)).toBe(true);
    }
  });

  it.each([-1, 8, 1.5])('refuses a start of %s', (startMod) => {
    expect(() => packCodeCaches(caches, startMod)).toThrow(/must be 0 to 7/);
  });

  it('refuses what is not a pack', () => {
    expect(() => packIndex(Buffer.from('nothing here'))).toThrow(/not a pack/);
  });
});
