import { setOwn } from './codecs/field-readers.js';

/** `T` with the fields that may be undefined made optional instead (design/models.md, "Defined fields"). */
export type DefinedFields<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/**
 * `fields` without the ones that are undefined, the rest in their order: an options object or a
 * record under `exactOptionalPropertyTypes`, where an optional field is absent, never undefined.
 */
export function definedFields<T extends object>(fields: T): DefinedFields<T> {
  // One new object and nothing else: no entry arrays (design/models.md, "Defined fields").
  const out: Record<string, unknown> = {};
  const source = fields as Record<string, unknown>;
  const keys = Object.keys(source);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const value = source[key];
    if (value !== undefined) setOwn(out, key, value);
  }
  return out as DefinedFields<T>;
}
