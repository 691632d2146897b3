import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import ts from 'typescript';
import { ApiReportError } from '../errors.js';

/** One exported name of an entry point, as the report prints it. */
export interface ExportedName {
  name: string;
  /** `function`, `class`, `interface`, `type`, `const`, `enum`, `namespace` or `re-export`. */
  kind: string;
  /** The declarations, printed without comments; for a re-export, the package it comes from. */
  text: string;
}

const PRINTER = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** The bundler renames clashing locals `Name$1`; the suffix is noise, not surface. */
const BUNDLER_SUFFIX = /\$\d+\b/g;

/**
 * Reads the exported names of built declaration files (`dist/<entry>.d.ts`) with one TypeScript
 * program, each sorted by name. Names that come from another package (`export { x } from
 * '@ipamkit/y'`) are recorded as re-exports of that package: their shape belongs to that package's
 * report.
 */
export function collectSurfaces(entries: readonly { dts: string; packageDir: string }[]): ExportedName[][] {
  const program = ts.createProgram(
    entries.map((e) => e.dts),
    {
      noEmit: true,
      skipLibCheck: true,
      types: [],
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
    },
  );
  const checker = program.getTypeChecker();
  return entries.map(({ dts, packageDir }) => {
    const source = program.getSourceFile(dts);
    if (source === undefined) throw new ApiReportError(`${dts} not found: build the package first`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) return [];
    const ownDir = packageDir.endsWith(sep) ? packageDir : packageDir + sep;
    return checker
      .getExportsOfModule(moduleSymbol)
      .map((symbol) => describe(symbol, checker, ownDir))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  });
}

function describe(symbol: ts.Symbol, checker: ts.TypeChecker, ownDir: string): ExportedName {
  const name = symbol.getName();
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declarations = target.declarations ?? [];
  const first = declarations[0];
  if (first === undefined) return { name, kind: 'unresolved', text: `${name}: could not be resolved` };
  const file = first.getSourceFile();
  if (!file.fileName.startsWith(ownDir)) {
    return { name, kind: 're-export', text: `${name} from ${packageNameOf(file.fileName)}` };
  }
  const text = declarations.map((d) => print(d)).join('\n');
  return { name, kind: kindOf(first), text: text.replace(BUNDLER_SUFFIX, '') };
}

function print(declaration: ts.Declaration): string {
  if (ts.isVariableDeclaration(declaration)) {
    const list = declaration.parent;
    const keyword = ts.isVariableDeclarationList(list) && list.flags & ts.NodeFlags.Const ? 'const' : 'let';
    return `${keyword} ${PRINTER.printNode(ts.EmitHint.Unspecified, declaration, declaration.getSourceFile())};`;
  }
  const printed = PRINTER.printNode(ts.EmitHint.Unspecified, declaration, declaration.getSourceFile());
  return printed.replace(/^(export )?(declare )?/, '');
}

function kindOf(declaration: ts.Declaration): string {
  if (ts.isFunctionDeclaration(declaration)) return 'function';
  if (ts.isClassDeclaration(declaration)) return 'class';
  if (ts.isInterfaceDeclaration(declaration)) return 'interface';
  if (ts.isTypeAliasDeclaration(declaration)) return 'type';
  if (ts.isVariableDeclaration(declaration)) return 'const';
  if (ts.isEnumDeclaration(declaration)) return 'enum';
  if (ts.isModuleDeclaration(declaration)) return 'namespace';
  return 'other';
}

/** The `name` of the nearest package.json above a declaration file (workspace links resolve to their folders). */
function packageNameOf(fileName: string): string {
  for (let dir = dirname(fileName); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const parsed: unknown = JSON.parse(readFileSync(manifest, 'utf8'));
      if (typeof parsed === 'object' && parsed !== null && 'name' in parsed && typeof parsed.name === 'string') return parsed.name;
    }
  }
  return fileName;
}
