/** Where the commands write: the process streams in the bin, collectors in tests. */
export interface SimIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { readonly isTTY?: boolean; write(text: string): unknown };
}
