import { readFile } from 'node:fs/promises';
import { InputFileError } from './errors.js';

/** The text of a JSON input named on the command line (`--cluster-state`, `--from-report`). */
export async function readInputFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new InputFileError(file, 'cannot be read', { cause: err });
  }
}
