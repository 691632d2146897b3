import type { JSONSchema4 } from '@typescript-eslint/utils/json-schema';

/** A `string[]` option. */
export const STRING_LIST: JSONSchema4 = { type: 'array', items: { type: 'string' } };

/** The `meta.schema` of a rule whose one options object takes `properties` and nothing else. */
export function optionsObject(properties: Record<string, JSONSchema4>): JSONSchema4[] {
  return [{ type: 'object', properties, additionalProperties: false }];
}
