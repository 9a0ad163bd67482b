/**
 * The zod schema of a PermissionDefinition: the one source of truth for its shape. `build()`, the
 * compiler and the emitted JSON Schema all derive from it. It is made from zod when first asked for
 * (`loadZod`): nothing here loads zod at import.
 */
import type { core as ZodCore } from 'zod';
import type { DefinitionProblemCode } from '../common/errors.js';
import { loadZod, zodMaxRefused, type ZodModule } from './zod-loader.js';
import { describeValue } from '../common/describe-value.js';
import { isSyntaxProblem, parseAttributePattern, parseGrantKey } from './grant-syntax.js';
import { hookNameProblem, MAX_NAME_LENGTH, nameProblem, RESERVED_HOOK_NAMES } from './names.js';
import { quoteForMessage } from '../common/printable-text.js';

const PRINTABLE_NAME_RULE = 'no control, format or line-break characters, no surrounding whitespace.';

/** The three ownership hooks of a definition. */
type HookName = 'isOwner' | 'listOwned' | 'limitOwned';

/**
 * A name: the length bounds also reach the emitted JSON Schema (editors check them, in code points); every rule of
 * `nameProblem`, the length in UTF-16 code units included, is checked here — so a name of astral characters that
 * zod's `max` lets through (129 to 256 code units) is measured and checked like any other.
 */
function nameSchema(z: ZodModule, what: string) {
  return z
    .string({ error: `a ${what} name must be a string` })
    .min(1, { error: `a ${what} name must not be empty` })
    .max(MAX_NAME_LENGTH, { error: `a ${what} name must be at most ${MAX_NAME_LENGTH} characters long` })
    .superRefine((value, ctx) => {
      // What zod's min and max refused is said once, by them.
      if (value.length === 0 || zodMaxRefused(value, MAX_NAME_LENGTH)) return;
      const problem = nameProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `the ${what} name ${quoteForMessage(value)} ${problem}`, input: value });
    });
}

const hookNameSchema = (z: ZodModule) =>
  z
    .string({ error: 'a hook must be a method name (string) or a function' })
    .max(MAX_NAME_LENGTH, { error: `a hook name must be at most ${MAX_NAME_LENGTH} characters long` })
    .regex(/^[A-Za-z_$][\w$]*$/, { error: 'a hook name must be a JavaScript identifier, for example "isCreator"' })
    .superRefine((value, ctx) => {
      if (!RESERVED_HOOK_NAMES.has(value)) return;
      ctx.addIssue({ code: 'custom', message: `the hook name ${quoteForMessage(value)} ${hookNameProblem(value) ?? 'is reserved'}`, input: value });
    });

const hookFunctionSchema = (z: ZodModule) =>
  z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', {
    error: 'a hook must be a method name (string) or a function',
  });

/** The name of an ownership rule of the definition's resource (its `*.resource.json` declares the rule). */
const ruleNameSchema = (z: ZodModule) =>
  z
    .string({ error: 'owner must be the name of an ownership rule of the resource (a string)' })
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, { error: 'owner must name an ownership rule: letters, digits and _, at most 64 characters, for example "creator"' })
    .refine((value) => value !== '__proto__', { error: 'owner must not be "__proto__"' });

/** Whether hooks may be functions (in-process) or only method names (the neutral JSON form). */
export type HookForm = 'functions-or-names' | 'names';

function shapeSchema(z: ZodModule, hooks: HookForm) {
  const hook = hooks === 'names' ? hookNameSchema(z) : z.union([hookNameSchema(z), hookFunctionSchema(z)]);
  const role = nameSchema(z, 'role');
  return z.strictObject({
    roles: z.union([role, z.array(role).min(1, { error: 'roles must name at least one role' })], {
      error: 'roles must be a role name or an array of role names',
    }),
    resource: nameSchema(z, 'resource'),
    descr: z.string().optional(),
    possession: z.enum(['own', 'any'], { error: "possession must be 'own' or 'any'" }).optional(),
    grant: z.union(
      [
        z.array(z.string({ error: 'a grant entry must be a string such as "read" or "read:own"' })),
        z.record(
          z.string(),
          z.array(z.string({ error: 'an attribute pattern must be a string' }), { error: 'the attributes of a grant key must be an array of patterns' }),
        ),
      ],
      { error: 'grant must be an array of actions or an object of action → attribute patterns' },
    ),
    isOwner: hook.optional(),
    listOwned: hook.optional(),
    limitOwned: hook.optional(),
    owner: ruleNameSchema(z).optional(),
  });
}

/** The parsed definition, as zod returns it. */
export type ParsedDefinition = ZodCore.output<ReturnType<typeof shapeSchema>>;

type ProblemSink = (code: DefinitionProblemCode, path: (string | number)[], message: string, fix: string) => void;

const GRANT_FIX =
  "Set grant to an array of actions (['read', 'list:any']) or an object of action → attribute patterns ({ 'read:own': ['*', '!confidential'] }).";

/**
 * The patterns of a grant key "__proto__", which zod's record never looks at (copying that key would set its
 * output's prototype): the same shape problems the schema reports for any other key.
 */
function checkProtoPatterns(patterns: unknown, path: (string | number)[], report: ProblemSink): void {
  if (!Array.isArray(patterns)) {
    report('invalid-shape', path, 'The attributes of a grant key must be an array of patterns.', GRANT_FIX);
    return;
  }
  patterns.forEach((pattern: unknown, i) => {
    if (typeof pattern !== 'string') report('invalid-shape', [...path, i], 'An attribute pattern must be a string.', GRANT_FIX);
  });
}

/**
 * The checks that span several fields of one definition: grant syntax and the ownership hooks. They
 * read the input defensively, so that they also run (and report) when other fields have the wrong shape.
 */
function checkDefinition(input: unknown, report: ProblemSink): void {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return;
  const definition = input as Partial<Record<keyof ParsedDefinition, unknown>>;
  const grant = definition.grant;
  const possession = definition.possession === 'own' || definition.possession === 'any' ? definition.possession : undefined;
  let entries: [key: string, patterns: unknown, path: (string | number)[]][];
  if (Array.isArray(grant)) entries = grant.flatMap((key, i) => (typeof key === 'string' ? [[key, undefined, ['grant', i]]] : []));
  else if (typeof grant === 'object' && grant !== null) entries = Object.entries(grant).map(([key, patterns]) => [key, patterns, ['grant', key]]);
  else return;
  if ((Array.isArray(grant) ? grant.length : entries.length) === 0)
    report(
      'empty-grant',
      ['grant'],
      'grant is empty, so the definition grants nothing.',
      "List at least one action, for example ['read'] or { 'read:own': ['*'] }.",
    );

  let grantsOwn = false;
  for (const [key, patterns, path] of entries) {
    const parsed = parseGrantKey(key);
    if (isSyntaxProblem(parsed)) {
      report(parsed.code, path, parsed.message, parsed.fix);
      continue;
    }
    if ((parsed.possession ?? possession ?? 'any') === 'own') grantsOwn = true;
    if (key === '__proto__' && !Array.isArray(grant)) checkProtoPatterns(patterns, path, report);
    if (!Array.isArray(patterns)) continue;
    if (patterns.length === 0)
      report(
        'bad-attribute',
        path,
        `Grant ${JSON.stringify(key)} lists no attribute, so it grants nothing.`,
        "List attribute patterns, for example ['*'] or ['title', 'date'], or remove the entry.",
      );
    patterns.forEach((pattern: unknown, i) => {
      if (typeof pattern !== 'string') return;
      const attribute = parseAttributePattern(pattern);
      if (isSyntaxProblem(attribute)) report(attribute.code, [...path, i], attribute.message, attribute.fix);
    });
  }

  const has = (hook: HookName) => definition[hook] !== undefined;
  if (definition.owner !== undefined) {
    checkRuleOwner(definition, (['isOwner', 'listOwned', 'limitOwned'] as const).filter(has), report);
    return;
  }
  if (has('listOwned') && has('limitOwned')) {
    report(
      'both-list-and-limit',
      ['limitOwned'],
      'The definition has both listOwned and limitOwned; ownership is decided by exactly one of them.',
      'Keep listOwned (ids of owned records) or limitOwned (a filter), not both.',
    );
  }
  // isOwner is optional since ownership can be computed (membership in listOwned; limitOwned run by
  // the resource's ownedAmong — checked by the table builder, which knows the resources).
  if (!has('listOwned') && !has('limitOwned')) {
    if (grantsOwn) {
      report(
        'own-without-list-or-limit',
        [],
        "The definition has an 'own' action but neither callback: listOwned or limitOwned is required, so that owned records can be listed or filtered.",
        'Add listOwned (returns the ids of owned records) or limitOwned (configures a filter of owned records); isOwner is then optional.',
      );
    } else if (has('isOwner')) {
      report(
        'hooks-incomplete',
        ['isOwner'],
        'isOwner is given without listOwned or limitOwned.',
        'Add exactly one of listOwned or limitOwned, or remove isOwner.',
      );
    }
  }
}

/** A definition whose ownership is a rule: no hook beside it, and one resource (a rule belongs to a resource). */
function checkRuleOwner(definition: Partial<Record<keyof ParsedDefinition, unknown>>, hooks: readonly HookName[], report: ProblemSink): void {
  for (const hook of hooks)
    report(
      'owner-with-hooks',
      [hook],
      `The definition names the ownership rule ${JSON.stringify(definition.owner)} and the hook ${hook}; ownership is decided by one of them.`,
      `Keep "owner" (the rule decides isOwn, listOwn, limitOwn and filterPick) or the hooks, not both.`,
    );
  if (definition.resource === '*')
    report(
      'owner-on-every-resource',
      ['owner'],
      `The definition names the ownership rule ${JSON.stringify(definition.owner)} for resource "*"; a rule belongs to one resource.`,
      'Write one definition per resource, each naming a rule its *.resource.json declares.',
    );
}

/**
 * The schema of one PermissionDefinition.
 *
 * @param hooks `'names'` for the neutral JSON form (hooks are method names), `'functions-or-names'` in-process.
 * @example
 * ```ts
 * const result = definitionSchema('names').safeParse(JSON.parse(text)[0]);
 * if (!result.success) console.error(result.error.issues);
 * ```
 */
export function definitionSchema(hooks: HookForm) {
  return shapeSchema(loadZod(), hooks).superRefine((definition, ctx) =>
    checkDefinition(definition, (code, path, message, fix) => ctx.addIssue({ code: 'custom', path, message, params: { problemCode: code, fix } })),
  );
}

let shapes: { readonly [form in HookForm]: ReturnType<typeof shapeSchema> } | undefined;

/** The shape schemas of both hook forms, made once, on first use. */
function shapeOf(hooks: HookForm): ReturnType<typeof shapeSchema> {
  if (shapes === undefined) {
    const z = loadZod();
    shapes = { 'functions-or-names': shapeSchema(z, 'functions-or-names'), names: shapeSchema(z, 'names') };
  }
  return shapes[hooks];
}

/** A problem in one definition, relative to that definition. */
export interface SchemaProblem {
  readonly code: DefinitionProblemCode;
  readonly path: readonly (string | number)[];
  readonly message: string;
  readonly fix: string;
}

/**
 * Validates one definition and returns every problem (empty when valid).
 *
 * @example
 * ```ts
 * validateDefinition({ roles: 'A', resource: 'doc', grant: ['read:mine'] }, 'names');
 * // [{ code: 'bad-possession', path: ['grant', 0], message: …, fix: … }]
 * ```
 */
export function validateDefinition(definition: unknown, hooks: HookForm): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const result = shapeOf(hooks).safeParse(definition, { reportInput: true });
  for (const issue of result.error?.issues ?? []) {
    const path = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
    problems.push({ code: 'invalid-shape', path, message: shapeMessage(issue, path), fix: shapeFix(issue, path) });
  }
  checkDefinition(definition, (code, path, message, fix) => problems.push({ code, path, message, fix }));
  return problems;
}

function shapeMessage(issue: ZodCore.$ZodIssue, path: readonly (string | number)[]): string {
  if (issue.code === 'unrecognized_keys')
    return `Unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys
      .slice(0, 10)
      .map((k) => quoteForMessage(k))
      .join(', ')}${issue.keys.length > 10 ? ` and ${issue.keys.length - 10} more` : ''}.`;
  if (path.length === 0) return `A definition must be an object, not ${describeValue(issue.input)}.`;
  if (issue.input === undefined) return `Field "${String(path.at(-1))}" is missing.`;
  const message = issue.message.charAt(0).toUpperCase() + issue.message.slice(1);
  return message.endsWith('.') ? message : `${message}.`;
}

function shapeFix(issue: ZodCore.$ZodIssue, path: readonly (string | number)[]): string {
  if (issue.code === 'unrecognized_keys')
    return 'Remove fields other than roles, resource, descr, possession, grant, isOwner, listOwned, limitOwned and owner (check their spelling).';
  switch (path[0]) {
    case undefined:
      return 'Write the definition as an object with roles, resource and grant.';
    case 'roles':
      if (issue.code === 'custom' || issue.code === 'too_big')
        return `Name roles with printable text of at most ${MAX_NAME_LENGTH} characters: ${PRINTABLE_NAME_RULE}`;
      return "Set roles to a role name or a non-empty array of role names, for example ['EMPLOYEE'].";
    case 'resource':
      if (issue.code === 'custom' || issue.code === 'too_big')
        return `Name the resource with printable text of at most ${MAX_NAME_LENGTH} characters: ${PRINTABLE_NAME_RULE}`;
      return "Set resource to a resource name, for example 'document', or '*' for every resource.";
    case 'grant':
      return GRANT_FIX;
    case 'possession':
      return "Use possession 'own' or 'any', or leave it out.";
    case 'descr':
      return 'Make descr a string.';
    case 'isOwner':
    case 'listOwned':
    case 'limitOwned':
      if (issue.code === 'custom') return 'Rename the method of the ownership service (and the hook string) to another identifier, for example "isCreator".';
      return 'Name a method of the ownership service (an identifier such as "isCreator") or give a function.';
    case 'owner':
      return `Name an ownership rule that the resource's *.resource.json declares under "ownership", for example "creator".`;
    default:
      return 'Check the field against the PermissionDefinition format.';
  }
}
