// Types of scripts/pack-code-caches.mjs, for the tests that check the pack (tests/sea-assets.test.ts).
export declare const PACK_MAGIC: string;
export declare const PACK_ALIGNMENT: number;
/** The pack of `caches` (name → bytes) for a pack that will start at an address ≡ `startMod` (mod 8). */
export declare function packCodeCaches(caches: Readonly<Record<string, Buffer>>, startMod: number): Buffer;
/** The pack's index: cache name → [offset, length]. */
export declare function packIndex(pack: Buffer): Record<string, [number, number]>;
