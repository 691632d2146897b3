import { ValidationError } from '@ipamkit/models';

/** One field Calico's validation refused, as `cerrors.ErroredField` carries it. */
export interface ErroredField {
  readonly name: string;
  readonly value: string;
  readonly reason: string;
}

function fieldText(f: ErroredField): string {
  return `${f.name} = '${f.value}' (${f.reason})`;
}

/**
 * A resource broke Calico's validation (design/cli.md "Resource validation"). The message has
 * Calico's shape: `error with field <Name> = '<value>' (<reason>)`, or one line per field.
 */
export class ResourceValidationError extends ValidationError {
  override name = 'ResourceValidationError';
  constructor(readonly fields: readonly ErroredField[]) {
    super(
      fields.length === 1 && fields[0] !== undefined
        ? `error with field ${fieldText(fields[0])}`
        : `error with the following fields:\n${fields.map((f) => `-  ${fieldText(f)}`).join('\n')}`,
    );
  }
}

/** A document in a `-f` file is not a resource this CLI manages, or is not YAML/JSON at all. */
export class ResourceDocumentError extends ValidationError {
  override name = 'ResourceDocumentError';
}
