/** `T` with the fields that may be undefined made optional instead (design/models.md, "Defined fields"). */
export type DefinedFields<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/**
 * `fields` without the ones that are undefined, the rest in their order: an options object or a
 * record under `exactOptionalPropertyTypes`, where an optional field is absent, never undefined.
 */
export function definedFields<T extends object>(fields: T): DefinedFields<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as DefinedFields<T>;
}
