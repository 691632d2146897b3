import ts from 'typescript';

/** Line numbers (1-based) of `export * from` / `export * as x from` statements in a module's source. */
export function exportStarLines(fileName: string, text: string): number[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  return source.statements
    .filter((s) => ts.isExportDeclaration(s) && (s.exportClause === undefined || ts.isNamespaceExport(s.exportClause)))
    .map((s) => source.getLineAndCharacterOfPosition(s.getStart(source)).line + 1);
}
