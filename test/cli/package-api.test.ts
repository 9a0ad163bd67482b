/**
 * The API of the typed-permissions-cli package (compiler/index.ts): compiling (`compile`, its options, phases
 * and result, the problem type and its formatting) and the command line (`main`, `runMain`, which the runtime's
 * `typed-permissions` command starts, and where they write) — nothing of how files are read, checked or
 * written. Every type that an export names, directly or through the compiler's own types it names, is exported
 * too, so a user can name whatever the API hands them.
 */
import { describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import * as cli from 'typed-permissions-cli';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = `${root}compiler/index.ts`;

const configFile = ts.readConfigFile(`${root}tsconfig.json`, (path) => ts.sys.readFile(path));
const config = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
const program = ts.createProgram([ENTRY], { ...config.options, noEmit: true });
const checker = program.getTypeChecker();

const resolved = (symbol: ts.Symbol): ts.Symbol => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);

function entryExports(): ts.Symbol[] {
  const source = program.getSourceFile(ENTRY);
  const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (moduleSymbol === undefined) throw new Error('compiler/index.ts is not a module');
  return checker.getExportsOfModule(moduleSymbol);
}

/** The named types of this repository (not of node_modules) that the type nodes under `node` refer to. */
function referencedTypes(node: ts.Node, into: Set<ts.Symbol>): void {
  if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node)) {
    const symbol = checker.getSymbolAtLocation(ts.isTypeReferenceNode(node) ? node.typeName : node.expression);
    const target = symbol === undefined ? undefined : resolved(symbol);
    const declaration = target?.declarations?.[0];
    if (target !== undefined && declaration !== undefined && !declaration.getSourceFile().fileName.includes('node_modules')) {
      if (!(target.flags & ts.SymbolFlags.TypeParameter)) into.add(target);
    }
  }
  ts.forEachChild(node, (child) => referencedTypes(child, into));
}

/** The type nodes of a declaration's public face: a function's parameters and result (not its body), a type's whole body. */
function signatureNodes(declaration: ts.Declaration): ts.Node[] {
  if (!ts.isFunctionDeclaration(declaration)) return [declaration];
  return [
    ...declaration.parameters.flatMap((parameter) => (parameter.type === undefined ? [] : [parameter.type])),
    ...(declaration.type === undefined ? [] : [declaration.type]),
  ];
}

const isCompilerSource = (symbol: ts.Symbol) => (symbol.declarations ?? []).some((d) => d.getSourceFile().fileName.startsWith(`${root}compiler/`));

describe('the typed-permissions-cli package API', () => {
  it('exports compile, the formatting of problems and the command line, and no value of its file handling', () => {
    expect(Object.keys(cli).sort()).toEqual(['compile', 'formatCompileProblem', 'formatJsonPath', 'main', 'runMain']);
  });

  it('exports the types of compile and its problems', () => {
    const types = entryExports()
      .filter((symbol) => !(resolved(symbol).flags & ts.SymbolFlags.Value))
      .map((symbol) => symbol.name)
      .sort();
    expect(types).toEqual([
      'CommandOutput',
      'CompileOptions',
      'CompilePhase',
      'CompileProblem',
      'CompileResult',
      'CompiledModel',
      'EmittedFile',
      'GrantTables',
      'HookMethod',
      'PolicyTests',
      'ProgressStream',
      'UnlistedProblems',
      'UserAttributeType',
      'ValidDefinition',
      'ValuePath',
    ]);
  });

  it('every type an export names, directly or through the compiler types it names, is exported', () => {
    const exported = new Set(entryExports().map(resolved));
    const missing = new Set<string>();
    const seen = new Set<ts.Symbol>();
    // The runtime's types it re-exports are the runtime's API (checked by its own surface test); the compiler's are followed.
    const queue = [...exported].filter(isCompilerSource);
    for (let symbol = queue.shift(); symbol !== undefined; symbol = queue.shift()) {
      if (seen.has(symbol)) continue;
      seen.add(symbol);
      const used = new Set<ts.Symbol>();
      for (const declaration of symbol.declarations ?? []) for (const node of signatureNodes(declaration)) referencedTypes(node, used);
      for (const type of used) {
        if (!exported.has(type)) missing.add(`${symbol.name} uses ${type.name}`);
        if (isCompilerSource(type)) queue.push(type);
      }
    }
    expect([...missing].sort()).toEqual([]);
  });
});
