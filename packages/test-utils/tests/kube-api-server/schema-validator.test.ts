import { describe, expect, it } from 'vitest';
import { validateAgainstSchema, type OpenApiSchema } from '../../src/index.js';

const SCHEMA: OpenApiSchema = {
  type: 'object',
  required: ['size'],
  properties: {
    size: { type: 'integer', minimum: 0, maximum: 100 },
    counter: { type: 'integer', format: 'int64' },
    small: { type: 'integer', format: 'int32' },
    color: { type: 'string', enum: ['red', 'green'] },
    code: { type: 'string', pattern: '^[a-z]+$', maxLength: 8 },
    when: { type: 'string', format: 'date-time' },
    cidr: { type: 'string', format: 'cidr' },
    slots: { type: 'array', items: { type: 'integer', nullable: true } },
    strict: { type: 'array', items: { type: 'integer' } },
    counts: { type: 'object', additionalProperties: { type: 'integer' } },
    free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    mode: { type: 'string', default: 'auto' },
    flag: { type: 'boolean' },
  },
};

function fieldsOf(value: Record<string, unknown>): string[] {
  return validateAgainstSchema(value as never, SCHEMA).errors.map((e) => `${e.field}:${e.reason}`);
}

describe('validateAgainstSchema', () => {
  it.each([
    { name: 'a minimal valid object', value: { size: 1 }, errors: [] },
    { name: 'a missing required field', value: {}, errors: ['size:FieldValueRequired'] },
    { name: 'a string for an integer', value: { size: '1' }, errors: ['size:FieldValueTypeInvalid'] },
    { name: 'a fraction for an integer', value: { size: 1.5 }, errors: ['size:FieldValueTypeInvalid'] },
    { name: 'a value below the minimum', value: { size: -1 }, errors: ['size:FieldValueInvalid'] },
    { name: 'a value above the maximum', value: { size: 101 }, errors: ['size:FieldValueInvalid'] },
    { name: 'an int64 beyond 2^53 as bigint', value: { size: 1, counter: 1779000000000000001n }, errors: [] },
    { name: 'an int64 overflow', value: { size: 1, counter: 2n ** 63n }, errors: ['counter:FieldValueInvalid'] },
    { name: 'an int32 overflow', value: { size: 1, small: 2 ** 31 }, errors: ['small:FieldValueInvalid'] },
    { name: 'a value outside the enum', value: { size: 1, color: 'blue' }, errors: ['color:FieldValueNotSupported'] },
    { name: 'a pattern mismatch', value: { size: 1, code: 'ABC' }, errors: ['code:FieldValueInvalid'] },
    { name: 'a string over maxLength', value: { size: 1, code: 'abcdefghi' }, errors: ['code:FieldValueTooLong'] },
    { name: 'a bad date-time', value: { size: 1, when: 'yesterday' }, errors: ['when:FieldValueInvalid'] },
    { name: 'a good date-time', value: { size: 1, when: '2026-08-22T13:33:20Z' }, errors: [] },
    { name: 'a bad cidr', value: { size: 1, cidr: '10.0.0.0/33' }, errors: ['cidr:FieldValueInvalid'] },
    { name: 'a good IPv6 cidr', value: { size: 1, cidr: 'fd00::/122' }, errors: [] },
    { name: 'null items of a nullable array', value: { size: 1, slots: [0, null, 2] }, errors: [] },
    { name: 'null items of a non-nullable array', value: { size: 1, strict: [0, null] }, errors: ['strict[1]:FieldValueTypeInvalid'] },
    { name: 'a wrongly typed map value', value: { size: 1, counts: { a: 'x' } }, errors: ['counts.a:FieldValueTypeInvalid'] },
    { name: 'a string for a boolean', value: { size: 1, flag: 'true' }, errors: ['flag:FieldValueTypeInvalid'] },
  ])('reports $name', ({ value, errors }) => {
    expect(fieldsOf(value)).toEqual(errors);
  });

  it('prunes unknown fields, keeps preserved ones, drops non-nullable nulls and applies defaults', () => {
    const { value, errors } = validateAgainstSchema({ size: 3, bogus: 1, free: { anything: [1] }, color: null }, SCHEMA);
    expect(errors).toEqual([]);
    expect(value).toEqual({ size: 3, free: { anything: [1] }, mode: 'auto' });
  });
});
