/**
 * The public surface stays small and complete: `typed-permissions` and `typed-permissions/precompiled` export at
 * most 44 names each (types included: 35 before the decision log's DecisionEvent, 36 before `unpackGrantTables`, which
 * the generated tables.ts calls to load its packed tables, 37 before `loadDefinitionDescriptions`, which loads the
 * definitions' descriptions that the generated code imports on demand, 38 before `OwnershipRuleSource`, which the
 * generated code of a policy naming ownership rules requires, and `memoryOwnership`, the source for records in
 * memory, 41 before tenants added `followTenantRoles`' options and result and the error of unreadable custom roles;
 * every other type of the rules is typed-permissions/ownership's, and a source of custom roles is
 * typed-permissions/live's), compiler plumbing lives in `./internal`, and every type that appears in a
 * public signature — a function's parameters and result, a class's public members, an interface's methods — is
 * exported by one of the package's entries, so a user can always name what the API takes and hands them. Every
 * function and public method the entries export (the compiler package's too) carries TSDoc with an example.
 */
import { describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The runtime package's public entries (package export → source file). */
const ENTRIES = {
  'typed-permissions': 'runtime/permissions/index.ts',
  'typed-permissions/precompiled': 'runtime/permissions/precompiled.ts',
  'typed-permissions/integration': 'runtime/integration/index.ts',
  'typed-permissions/nest': 'runtime/nest/index.ts',
  'typed-permissions/express': 'runtime/express/index.ts',
  'typed-permissions/fastify': 'runtime/fastify/index.ts',
  'typed-permissions/hono': 'runtime/hono/index.ts',
  'typed-permissions/client': 'runtime/client/index.ts',
  'typed-permissions/live': 'runtime/live/index.ts',
  'typed-permissions/service': 'runtime/service/index.ts',
  'typed-permissions/remote': 'runtime/remote/index.ts',
  'typed-permissions/ownership': 'runtime/ownership/index.ts',
  'typed-permissions/kysely': 'runtime/kysely/index.ts',
  'typed-permissions/drizzle': 'runtime/drizzle/index.ts',
  'typed-permissions/prisma': 'runtime/prisma/index.ts',
} as const;

const configFile = ts.readConfigFile(`${root}tsconfig.json`, (path) => ts.sys.readFile(path));
const config = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
/** The compiler package's entry (`typed-permissions-cli`), whose functions are documented the same way. */
const COMPILER_ENTRY = 'compiler/index.ts';

const program = ts.createProgram(
  [...Object.values(ENTRIES), COMPILER_ENTRY].map((file) => `${root}${file}`),
  { ...config.options, noEmit: true },
);
const checker = program.getTypeChecker();

function exportsOf(file: string): ts.Symbol[] {
  const source = program.getSourceFile(`${root}${file}`);
  if (source === undefined) throw new Error(`no source file ${file}`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (moduleSymbol === undefined) throw new Error(`${file} is not a module`);
  return checker.getExportsOfModule(moduleSymbol);
}

const resolved = (symbol: ts.Symbol): ts.Symbol => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);

/** Every declaration some public entry exports. */
const exportedDeclarations = new Set<ts.Declaration>(
  Object.values(ENTRIES).flatMap((file) => exportsOf(file).flatMap((symbol) => resolved(symbol).declarations ?? [])),
);

/** The named types of this package that a signature's type nodes refer to. */
function referencedTypes(node: ts.Node | undefined, into: Set<ts.Symbol>): void {
  if (node === undefined) return;
  if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node)) {
    const name = ts.isTypeReferenceNode(node) ? node.typeName : node.expression;
    const symbol = checker.getSymbolAtLocation(name);
    if (symbol !== undefined) {
      const target = resolved(symbol);
      const declaration = target.declarations?.[0];
      const fromHere = declaration !== undefined && !declaration.getSourceFile().fileName.includes('node_modules');
      if (fromHere && !(target.flags & ts.SymbolFlags.TypeParameter)) into.add(target);
    }
  }
  ts.forEachChild(node, (child) => referencedTypes(child, into));
}

/** The types a callable's parameters, result and type-parameter constraints name. */
function callableTypes(callable: ts.SignatureDeclarationBase, into: Set<ts.Symbol>): void {
  callable.typeParameters?.forEach((parameter) => referencedTypes(parameter.constraint, into));
  callable.parameters.forEach((parameter) => referencedTypes(parameter.type, into));
  referencedTypes(callable.type, into);
}

const isHidden = (member: ts.Node): boolean =>
  (ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : []).some(
    (m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword,
  ) || ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'internal');

/**
 * The named types of a declaration's public signatures: an exported function's; a class's public methods,
 * constructor, properties and getters; an interface's methods and call signatures (and function-typed
 * properties); a function type alias's. Data shapes (an interface's plain properties, a type alias's body) are
 * the types users receive, exported themselves; their insides are reached by indexed access.
 */
function signatureTypes(declaration: ts.Declaration): Set<ts.Symbol> {
  const found = new Set<ts.Symbol>();
  const member = (node: ts.Node) => {
    if (isHidden(node)) return;
    if (ts.isMethodDeclaration(node) || ts.isMethodSignature(node) || ts.isConstructorDeclaration(node) || ts.isCallSignatureDeclaration(node))
      callableTypes(node, found);
    else if (ts.isGetAccessor(node)) referencedTypes(node.type, found);
    else if (ts.isPropertyDeclaration(node)) referencedTypes(node.type, found);
    else if (ts.isPropertySignature(node) && node.type !== undefined && ts.isFunctionTypeNode(node.type)) callableTypes(node.type, found);
  };
  if (ts.isFunctionDeclaration(declaration)) callableTypes(declaration, found);
  else if (ts.isClassDeclaration(declaration) || ts.isInterfaceDeclaration(declaration)) declaration.members.forEach(member);
  else if (ts.isTypeAliasDeclaration(declaration) && ts.isFunctionTypeNode(declaration.type)) callableTypes(declaration.type, found);
  return found;
}

/**
 * Methods the framework calls, never the user: Nest's lifecycle hooks. Their TSDoc says when Nest calls them; an
 * example would show a call no application makes.
 */
const FRAMEWORK_CALLED = new Set(['onModuleInit', 'onApplicationBootstrap', 'onApplicationShutdown', 'onModuleDestroy']);

const hasExample = (node: ts.Node): boolean => ts.getJSDocTags(node).some((tag) => tag.tagName.text === 'example');

/** Where `node` is, for a failure: `runtime/remote/remote-permissions.ts:131`. */
function placeOf(node: ts.Node): string {
  const source = node.getSourceFile();
  return `${source.fileName.slice(root.length)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
}

/**
 * The exported functions and public class methods without an example in their TSDoc. An overloaded function or
 * method counts as documented when one of its declarations has the example (the first overload, as editors show it).
 */
function undocumentedCallables(symbols: readonly ts.Symbol[]): string[] {
  const missing: string[] = [];
  const check = (name: string, declarations: readonly ts.Node[]) => {
    if (declarations.length > 0 && !declarations.some(hasExample)) missing.push(`${name} (${placeOf(declarations[0] as ts.Node)})`);
  };
  for (const symbol of symbols) {
    const declarations = resolved(symbol).declarations ?? [];
    check(symbol.name, declarations.filter(ts.isFunctionDeclaration));
    for (const variable of declarations.filter(ts.isVariableDeclaration)) {
      const initializer = variable.initializer;
      if (initializer !== undefined && (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer))) check(symbol.name, [variable.parent.parent]);
    }
    for (const declaration of declarations.filter(ts.isClassDeclaration)) {
      const methods = new Map<string, ts.MethodDeclaration[]>();
      for (const member of declaration.members) {
        if (!ts.isMethodDeclaration(member) || isHidden(member) || !ts.isIdentifier(member.name)) continue;
        if (FRAMEWORK_CALLED.has(member.name.text)) continue;
        methods.set(member.name.text, [...(methods.get(member.name.text) ?? []), member]);
      }
      for (const [name, overloads] of methods) check(`${symbol.name}.${name}`, overloads);
    }
  }
  return missing;
}

describe('the public surface', () => {
  it('typed-permissions and typed-permissions/precompiled export at most 44 names each, types included', () => {
    const counts = Object.fromEntries(Object.entries(ENTRIES).map(([entry, file]) => [entry, exportsOf(file).length]));
    console.info(`exported names per entry: ${JSON.stringify(counts)}`);
    expect(counts['typed-permissions']).toBeLessThanOrEqual(44);
    expect(counts['typed-permissions/precompiled']).toBeLessThanOrEqual(44);
  });

  it('compiler plumbing is not exported by the public entries', () => {
    const names = new Set(Object.values(ENTRIES).flatMap((file) => exportsOf(file).map((symbol) => symbol.name)));
    for (const plumbing of [
      'buildGrantTables',
      'definitionSchema',
      'validateDefinition',
      'parseGrantKey',
      'pickWithPlan',
      'GrantCell',
      'createTypedPermissions',
    ])
      expect([plumbing, names.has(plumbing)]).toEqual([plumbing, false]);
  });

  it("the integration kit exports a small set of the shape checker — what an integration's own options need — and the permit checks", () => {
    const kit = exportsOf(ENTRIES['typed-permissions/integration']);
    const from = (file: string) =>
      kit
        .filter((symbol) => (resolved(symbol).declarations ?? []).some((declaration) => declaration.getSourceFile().fileName === `${root}${file}`))
        .map((symbol) => symbol.name)
        .sort();
    expect(from('runtime/core/shape/shape-check.ts')).toEqual([
      'Fields',
      'ObjectProblems',
      'Problem',
      'Shape',
      'ShapeType',
      'object',
      'optional',
      'usageChecked',
      'valid',
    ]);
    expect(from('runtime/integration/permit-options.ts')).toEqual([
      'CheckedPermitOptions',
      'CheckedPermitRoute',
      'IntegrationFactory',
      'PermitOptions',
      'PermitRouteOptions',
      'checkPermitOptions',
      'checkPermitRoute',
    ]);
    expect(from('runtime/integration/server-error-reporter.ts')).toEqual(['ServerErrorReporter', 'serverErrorReporter']);
    expect(from('runtime/integration/thrown-value.ts')).toEqual(['ThrownValueError', 'errorOfThrown']);
  });

  it('every type in a public signature is exported by one of the entries', () => {
    const missing: string[] = [];
    for (const [entry, file] of Object.entries(ENTRIES)) {
      for (const symbol of exportsOf(file)) {
        for (const declaration of resolved(symbol).declarations ?? []) {
          for (const used of signatureTypes(declaration)) {
            const declarations = used.declarations ?? [];
            if (!declarations.some((d) => exportedDeclarations.has(d))) missing.push(`${entry}: ${symbol.name} uses ${used.name}`);
          }
        }
      }
    }
    expect([...new Set(missing)].sort()).toEqual([]);
  });

  it('every exported function and public method has TSDoc with an example', () => {
    const symbols = [...Object.values(ENTRIES), COMPILER_ENTRY].flatMap((file) => exportsOf(file));
    expect([...new Set(undocumentedCallables(symbols))].sort()).toEqual([]);
  });
});
