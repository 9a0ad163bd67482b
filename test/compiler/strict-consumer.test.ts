/**
 * Every generated TypeScript file type-checks in a consumer project with the
 * strictest common compiler settings (strict, noUnused*, exactOptionalPropertyTypes,
 * noUncheckedIndexedAccess, isolatedDeclarations, erasableSyntaxOnly, verbatimModuleSyntax, …),
 * under nodenext and under bundler resolution, for a policy with no hooks, one with only listOwned
 * groups, one with only limitOwned groups, one whose names need escaping, and the repository's
 * definitions/ — with TypeScript 6 (its API) and with TypeScript 7 (its command line, what `npm install typescript`
 * installs). And `literal()` turns any string into a valid TypeScript string literal.
 *
 * Only the generated files and the consumer file are checked (syntax, semantics and declaration
 * emit): the runtime sources they import by relative path inside this repository stand in for the
 * published package's declaration files and follow the repository's own settings.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { compile } from '../../compiler/compile.js';
import { literal, propertyName } from '../../compiler/emit/emit-context.js';
import { EMITTED_FILES, makeTempDir, removeTempDir, repoRoot } from './helpers.js';
import { runTsc, TSC_7 } from './typescript-cli.js';

/** The strictest settings a consumer commonly turns on, as a tsconfig.json writes them. */
const STRICTEST = {
  target: 'es2023',
  lib: ['es2023'],
  types: ['node'],
  typeRoots: [join(repoRoot, 'node_modules', '@types')],
  strict: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  noImplicitReturns: true,
  noPropertyAccessFromIndexSignature: true,
  noFallthroughCasesInSwitch: true,
  allowUnreachableCode: false,
  allowUnusedLabels: false,
  useUnknownInCatchVariables: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  erasableSyntaxOnly: true,
  isolatedDeclarations: true,
  declaration: true,
  noEmit: true,
  skipLibCheck: false,
};

const MODULE_SETTINGS = [
  ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }],
  ['esnext + bundler', { module: 'esnext', moduleResolution: 'bundler' }],
] as const;

/** tsconfig.json's compiler options as TypeScript 6's API takes them. */
function apiOptions(json: Readonly<Record<string, unknown>>): ts.CompilerOptions {
  const { options, errors } = ts.convertCompilerOptionsFromJson(json, repoRoot);
  if (errors.length > 0) throw new Error(errors.map((error) => ts.flattenDiagnosticMessageText(error.messageText, ' ')).join('\n'));
  return options;
}

interface Policy {
  readonly name: string;
  /** The definitions folder: a JSON text per file name, or the path of an existing folder. */
  readonly definitions: Readonly<Record<string, string>> | string;
  /** The consumer's ownership service (an object literal), typed `PermissionsOwnershipService<AppUser, NoteFilter>`. */
  readonly ownership: string;
  /**
   * For a policy that names ownership rules: the source of their records (an object literal, typed as
   * `createPermissions` takes it), and the fields its users carry for the rules to read.
   */
  readonly rules?: { readonly source: string; readonly userFields: string };
  /** One valid grant query. */
  readonly query: string;
}

const POLICIES: readonly Policy[] = [
  {
    name: 'no hooks at all',
    definitions: { 'note.permissions.json': JSON.stringify([{ roles: ['READER'], resource: 'note', grant: ['read', 'list'] }]) },
    ownership: '{}',
    query: "{ user, resource: 'note', action: 'read' }",
  },
  {
    name: 'only listOwned groups',
    definitions: {
      'note.permissions.json': JSON.stringify([
        { roles: ['AUTHOR'], resource: 'note', possession: 'own', isOwner: 'isAuthor', listOwned: 'listAuthored', grant: ['read', 'update'] },
      ]),
      'note.resource.json': JSON.stringify({ resource: 'note', idType: 'number' }),
    },
    ownership: `{
  isAuthor: ({ user, resourceId }) => resourceId === user.id,
  listAuthored: ({ user }) => Promise.resolve([user.id]),
}`,
    query: "{ user, resource: 'note', action: 'update', resourceId: 3 }",
  },
  {
    name: 'only limitOwned groups',
    definitions: {
      'note.permissions.json': JSON.stringify([
        { roles: ['AUTHOR'], resource: 'note', possession: 'own', isOwner: 'isAuthor', limitOwned: 'limitToAuthor', grant: ['read'] },
      ]),
    },
    ownership: `{
  isAuthor: ({ user, resourceId }) => resourceId === String(user.id),
  limitToAuthor: ({ user }) => ({ authorId: user.id }),
}`,
    query: "{ user, resource: 'note', action: 'read', resourceId: 'n1' }",
  },
  {
    name: 'names that need escaping',
    definitions: {
      'note.permissions.json': JSON.stringify([
        { roles: ["O'BRIEN", 'BACK\\SLASH', 'QUOTE"D', '__proto__'], resource: "it's", grant: ["sign'off", 'read'] },
        { roles: ['READER'], resource: 'note', grant: ['read'] },
      ]),
    },
    ownership: '{}',
    query: '{ user, resource: "it\'s", action: "sign\'off" }',
  },
  {
    name: "the repository's definitions/",
    definitions: join(repoRoot, 'definitions'),
    // Its ownership is declared as rules: no method to write, a source of the records the rules read instead.
    ownership: '{}',
    rules: {
      source: `{
  filter: () => ({ authorId: 0 }),
  ownedAmong: (_question, ids) => Promise.resolve(ids),
  listOwned: () => Promise.resolve([]),
}`,
      userFields: `
  readonly companyId: number | null;
  readonly managedUserIds: readonly number[];`,
    },
    query: "{ user, resource: 'document', action: 'review', resourceId: 10 }",
  },
];

/** A consumer module that itself follows the strictest settings (explicit types on every export). */
function consumerSource(policy: Policy): string {
  const { rules } = policy;
  const optionsType = rules === undefined ? '' : 'type CreatePermissionsOptions, ';
  return `import { createPermissions, ${optionsType}type PermissionsOwnershipService, type Role } from './generated/index.js';

export interface AppUser {
  readonly id: number;
  readonly roles: readonly Role[];${rules?.userFields ?? ''}
}
export interface NoteFilter {
  readonly authorId: number;
}

export const ownership: PermissionsOwnershipService<AppUser, NoteFilter> = ${policy.ownership};
${
  rules === undefined
    ? 'const permissions = createPermissions<AppUser, NoteFilter>({ ownership, strict: true });'
    : `export const ownershipRules: CreatePermissionsOptions<AppUser, NoteFilter>['ownershipRules'] = ${rules.source};
const permissions = createPermissions<AppUser, NoteFilter>({ ownership, ownershipRules, strict: true });`
}

export async function isGranted(user: AppUser): Promise<boolean> {
  const permit = await permissions.grantPermit(${policy.query});
  return permit.granted;
}
`;
}

/** Diagnostics of `files` only, as `file line:column TSxxxx: message`; global and option diagnostics always count. */
function strictDiagnostics(program: ts.Program, files: readonly string[]): string[] {
  const diagnostics: ts.Diagnostic[] = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (source === undefined) throw new Error(`${file} is not in the program`);
    diagnostics.push(...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source), ...program.getDeclarationDiagnostics(source));
  }
  return diagnostics.map((diagnostic) => {
    const where =
      diagnostic.file === undefined || diagnostic.start === undefined
        ? '<global>'
        : (() => {
            const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
            return `${diagnostic.file.fileName} ${line + 1}:${character + 1}`;
          })();
    return `${where} TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
  });
}

describe('generated code compiles under the strictest common consumer settings', () => {
  let temp: string | undefined;
  const folders = new Map<string, string>();

  beforeAll(async () => {
    temp = makeTempDir('strict-consumer');
    for (const [index, policy] of POLICIES.entries()) {
      const project = join(temp, `policy-${index}`);
      let definitions: string;
      if (typeof policy.definitions === 'string') definitions = policy.definitions;
      else {
        definitions = join(project, 'definitions');
        mkdirSync(definitions, { recursive: true });
        for (const [file, text] of Object.entries(policy.definitions)) writeFileSync(join(definitions, file), text);
      }
      const result = await compile({ definitionsDir: definitions, outDir: join(project, 'generated') });
      if (!result.ok) throw new Error(`${policy.name} does not compile: ${JSON.stringify(result.problems)}`);
      writeFileSync(join(project, 'consumer.ts'), consumerSource(policy));
      folders.set(policy.name, project);
    }
  }, 60_000);
  afterAll(() => removeTempDir(temp));

  const checkedFiles = (project: string) => [
    join(project, 'consumer.ts'),
    ...EMITTED_FILES.filter((file) => file.endsWith('.ts')).map((file) => join(project, 'generated', file)),
  ];
  // One program per module setting holds every policy (each a folder of modules of its own), as TypeScript 7's
  // run below does: the runtime sources they all import are read and bound once, not once per policy.
  const programs = new Map<string, ts.Program>();
  const programFor = (label: string, settings: Readonly<Record<string, unknown>>): ts.Program => {
    const known = programs.get(label);
    if (known !== undefined) return known;
    const program = ts.createProgram({ rootNames: [...folders.values()].flatMap(checkedFiles), options: apiOptions({ ...STRICTEST, ...settings }) });
    programs.set(label, program);
    return program;
  };

  const cases = POLICIES.flatMap((policy) => MODULE_SETTINGS.map(([label, settings]) => [policy.name, label, settings] as const));
  it.each(cases)(
    '%s, with module %s: the generated files and a consumer have zero diagnostics',
    (name, label, settings) => {
      expect(strictDiagnostics(programFor(label, settings), checkedFiles(folders.get(name) as string))).toEqual([]);
    },
    60_000,
  );

  it.each(MODULE_SETTINGS)(
    'with TypeScript 7, module %s: every policy’s generated files and consumer have zero diagnostics',
    (label, settings) => {
      // One program for every policy (each a folder of modules of its own); as with TypeScript 6, only the generated
      // files and the consumers count, not the runtime sources they import by relative path here.
      const checked = [...folders.values()].flatMap(checkedFiles);
      const config = join(temp as string, `tsconfig.${label.replace(/\W+/g, '-')}.json`);
      writeFileSync(config, JSON.stringify({ compilerOptions: { ...STRICTEST, ...settings }, files: checked }));
      // A crash or an unknown option is a diagnostic without a file: it counts.
      const { byFile } = runTsc(TSC_7, config, temp as string);
      const counted = [...byFile].filter(([file]) => file === '<global>' || checked.includes(file));
      expect(counted).toEqual([]);
    },
    150_000,
  );
});

describe('literal() makes a valid TypeScript string literal of any string', () => {
  const NASTY = [
    '',
    'document',
    "it's",
    'say "hi"',
    'back\\slash',
    '\\',
    "\\'",
    'line\nbreak',
    'carriage\rreturn',
    'tab\tand\u0000nul',
    'line\u2028separator',
    'paragraph\u2029separator',
    'lone \ud800 high surrogate',
    'lone \udc00 low surrogate',
    'pair \ud83d\ude00 emoji',
    '${template}',
    '`backtick`',
    '*/ comment end',
    '\u007f\u0085\u00a0\ufeff',
  ];

  it.each(NASTY.map((value) => [JSON.stringify(value), value] as const))('literal(%s) parses back to the same string, on one line', (_shown, value) => {
    const source = ts.createSourceFile('literal.ts', `export const x = { ${propertyName(value)}: ${literal(value)} };\n`, ts.ScriptTarget.Latest, true);
    const diagnostics = (source as ts.SourceFile & { parseDiagnostics: readonly ts.Diagnostic[] }).parseDiagnostics;
    expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '))).toEqual([]);
    // One line: a raw line terminator (U+2028 included) inside the literal would make two.
    expect(source.getLineStarts()).toHaveLength(2);
    const statement = source.statements[0] as ts.VariableStatement;
    const object = statement.declarationList.declarations[0]?.initializer as ts.ObjectLiteralExpression;
    const property = object.properties[0] as ts.PropertyAssignment;
    expect(ts.isStringLiteral(property.initializer) ? property.initializer.text : undefined).toBe(value);
    const key = property.name;
    expect(ts.isIdentifier(key) || ts.isStringLiteral(key) ? key.text : undefined).toBe(value);
  });
});
