/**
 * Explanations: which definitions grant (or would grant) an action, in which possession, with which
 * attributes — read from the same tables the decision uses, so an explanation cannot disagree with it.
 */
import { definitionSummary, resourceCells, type CellRange } from '../tables/packed-tables.js';
import { compileAttributePatterns, NOTHING, planFromJson, planToPatterns, unionPlans } from '../projection/attribute-plan.js';
import { groupOwnershipLabel, type GrantCell, type GrantTables } from '../tables/grant-tables.js';
import { undeclaredActionMessage } from '../definition/declared-actions.js';
import { nearestName } from '../common/nearest-name.js';
import { printableText } from '../common/printable-text.js';

/** A definition, as an explanation names it. */
export interface ExplainedDefinition {
  readonly index: number;
  readonly source?: string;
  readonly descr?: string;
}

/** What one of the user's roles contributes. */
export interface ExplainedRole {
  readonly role: string;
  /** Attributes this role grants as `any`, or undefined when it does not grant the action as any. */
  readonly any: readonly string[] | undefined;
  /** Own grants, each with the isOwner hook that decides them and the attributes for owned records. */
  readonly own: readonly { readonly isOwner: string; readonly attributes: readonly string[] }[];
  /** The definitions that reached this role's cell, with the possession they granted. */
  readonly definitions: readonly (ExplainedDefinition & { readonly possession: 'any' | 'own' })[];
  /** The tenant whose custom role this is; absent for a role of the compiled policy. */
  readonly tenant?: string;
}

/** Why an id was (or was not) owned. */
export interface ExplainedOwnership {
  readonly resourceId: unknown;
  /** Each isOwner hook asked, and its answer. Empty when no ownership hook applies. */
  readonly checks: readonly { readonly isOwner: string; readonly owned: boolean }[];
}

/** An unknown name of the question and the known one nearest to it: probably what was meant. */
export interface ExplainedSuggestion {
  readonly kind: 'role' | 'resource' | 'action';
  readonly name: string;
  readonly nearest: string;
}

/** The full explanation of one decision. */
export interface Explanation {
  /** The tenant the question was asked in; absent for a question without one. */
  readonly tenant?: string;
  readonly roles: readonly string[];
  readonly resource: string;
  readonly action: string;
  readonly granted: boolean;
  readonly anyGranted: boolean;
  readonly anyAttributes: readonly string[];
  readonly unknownRoles: readonly string[];
  readonly unknownResource: boolean;
  readonly unknownAction: boolean;
  /**
   * The actions the resource declares, when it declares them and the action asked is not one of them (`unknownAction`
   * is then true: asking it is refused, not answered).
   */
  readonly declaredActions?: readonly string[];
  /** For each unknown role, resource or action that is near a known one: the known one ("Did you mean"). */
  readonly suggestions: readonly ExplainedSuggestion[];
  readonly byRole: readonly ExplainedRole[];
  readonly ownership?: ExplainedOwnership;
}

function findCell({ cells, start, end }: CellRange, action: number, role: number): GrantCell | undefined {
  // A resource's cells are sorted by (action, role): binary search.
  let low = start;
  let high = end - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const cell = cells[middle] as GrantCell;
    const order = cell[1] - action || cell[2] - role;
    if (order === 0) return cell;
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

/**
 * Explains what `roles` may do with `action` on `resource`, from grant tables alone (no hooks run).
 * Without a resource id, `granted` means granted as any or as own.
 *
 * @example
 * ```ts
 * const explanation = explainGrant(permissions.tables, ['EMPLOYEE'], 'document', 'read');
 * console.log(formatExplanation(explanation));
 * ```
 */
export function explainGrant(tables: GrantTables, roles: readonly string[], resource: string, action: string): Explanation {
  const resourceIndex = tables.resources.indexOf(resource);
  const declaredIndexes = resourceIndex === -1 ? undefined : (tables.declaredActions?.[resourceIndex] ?? undefined);
  const known = tables.actions.indexOf(action);
  // On a resource that declares its actions, an action it does not declare is unknown there.
  const actionIndex = declaredIndexes === undefined || declaredIndexes.includes(known) ? known : -1;
  const declared = declaredIndexes?.map((i) => tables.actions[i] as string);
  const unknownRoles = roles.filter((role) => !tables.roles.includes(role));
  const byRole: ExplainedRole[] = [];
  let anyPlan = NOTHING;
  let ownGranted = false;
  if (resourceIndex !== -1 && actionIndex !== -1) {
    const cells = resourceCells(tables, resourceIndex);
    for (const role of [...new Set(roles)]) {
      const roleIndex = tables.roles.indexOf(role);
      const cell = roleIndex === -1 ? undefined : findCell(cells, actionIndex, roleIndex);
      if (cell === undefined) continue;
      const [, , , any, own, , sources] = cell;
      const rolePlan = any === -1 ? undefined : planFromJson(tables.plans[any]!);
      if (rolePlan !== undefined) anyPlan = unionPlans(anyPlan, rolePlan);
      const owned: { isOwner: string; attributes: string[] }[] = [];
      for (let i = 0; i < own.length; i += 2) {
        owned.push({ isOwner: groupOwnershipLabel(tables, own[i]!, resourceIndex), attributes: planToPatterns(planFromJson(tables.plans[own[i + 1]!]!)) });
      }
      if (owned.length > 0) ownGranted = true;
      byRole.push({
        role,
        any: rolePlan === undefined ? undefined : planToPatterns(rolePlan),
        own: owned,
        definitions: sources.map((source) => ({
          ...definitionSummary(tables, source >> 1)!,
          possession: source % 2 === 1 ? ('own' as const) : ('any' as const),
        })),
      });
    }
  }
  return {
    roles,
    resource,
    action,
    granted: anyPlan.allowsAny || ownGranted,
    anyGranted: anyPlan.allowsAny,
    anyAttributes: planToPatterns(anyPlan),
    unknownRoles,
    unknownResource: resourceIndex === -1,
    unknownAction: actionIndex === -1,
    ...(declared !== undefined && actionIndex === -1 ? { declaredActions: declared } : {}),
    suggestions: suggestionsFor(tables, unknownRoles, resourceIndex === -1 ? resource : undefined, actionIndex === -1 ? action : undefined, declared),
    byRole,
  };
}

/**
 * {@link explainGrant} of a question asked in `tenant`: the policy's roles explained by its tables, the tenant's
 * custom roles by theirs (`tenantTables`, which share the policy's names), each custom role marked with the tenant.
 *
 * @example
 * ```ts
 * explainGrantIn(grantTables, { id: 'acme', tables: acmeRoles }, ['EMPLOYEE', 'REVIEWER'], 'document', 'review').byRole[1]?.tenant; // 'acme'
 * ```
 */
export function explainGrantIn(
  tables: GrantTables,
  tenant: { readonly id: string; readonly tables: GrantTables | undefined } | undefined,
  roles: readonly string[],
  resource: string,
  action: string,
): Explanation {
  if (tenant === undefined) return explainGrant(tables, roles, resource, action);
  const custom = tenant.tables;
  if (custom === undefined) return { tenant: tenant.id, ...explainGrant(tables, roles, resource, action) };
  const customRoles = new Set(custom.roles);
  const base = explainGrant(
    tables,
    roles.filter((role) => !customRoles.has(role)),
    resource,
    action,
  );
  const own = explainGrant(
    custom,
    roles.filter((role) => customRoles.has(role)),
    resource,
    action,
  );
  const anyPlan = unionPlans(compileAttributePatterns(base.anyAttributes), compileAttributePatterns(own.anyAttributes));
  const unknownRoles = base.unknownRoles;
  return {
    ...base,
    tenant: tenant.id,
    roles,
    granted: base.granted || own.granted,
    anyGranted: base.anyGranted || own.anyGranted,
    anyAttributes: base.anyGranted || own.anyGranted ? planToPatterns(anyPlan) : [],
    unknownRoles,
    suggestions: suggestionsFor(
      // The names only: spreading the tables would read their definitions, which packed tables load on demand.
      { roles: [...tables.roles, ...custom.roles], resources: tables.resources, actions: tables.actions },
      unknownRoles,
      base.unknownResource ? resource : undefined,
      base.unknownAction ? action : undefined,
      base.declaredActions,
    ),
    byRole: [...base.byRole, ...own.byRole.map((role) => ({ ...role, tenant: tenant.id }))],
  };
}

function suggestionsFor(
  tables: Pick<GrantTables, 'roles' | 'resources' | 'actions'>,
  roles: readonly string[],
  resource: string | undefined,
  action: string | undefined,
  declared: readonly string[] | undefined,
): ExplainedSuggestion[] {
  const asked = [
    ...[...new Set(roles)].map((name) => ({ kind: 'role' as const, name, known: tables.roles })),
    ...(resource === undefined ? [] : [{ kind: 'resource' as const, name: resource, known: tables.resources }]),
    ...(action === undefined ? [] : [{ kind: 'action' as const, name: action, known: declared ?? tables.actions }]),
  ];
  return asked.flatMap(({ kind, name, known }) => {
    const nearest = nearestName(name, known);
    return nearest === undefined ? [] : [{ kind, name, nearest }];
  });
}

/** Every name, description and id below is input: printed through {@link printableText}, so no control character reaches the terminal. */
const shown = printableText;

function quoted(text: string): string {
  return shown(JSON.stringify(text));
}

function idText(resourceId: unknown): string {
  // Ids are strings or numbers; anything else must still print rather than throw (JSON.stringify throws on a bigint).
  if (typeof resourceId === 'string') return quoted(resourceId);
  if (typeof resourceId === 'number' || typeof resourceId === 'bigint' || typeof resourceId === 'boolean') return String(resourceId);
  try {
    return shown(JSON.stringify(resourceId) ?? String(resourceId));
  } catch {
    return '(an id that cannot be printed)';
  }
}

function definitionLabel(definition: ExplainedDefinition): string {
  return `${shown(definition.source ?? 'definitions')} #${definition.index}${definition.descr === undefined ? '' : ` ("${shown(definition.descr)}")`}`;
}

/**
 * Renders an explanation as lines a person reads. Names, descriptions, sources and ids are shown
 * with control and format characters as visible escapes (`\u001b`), so a definition or a user's
 * roles cannot inject terminal escape sequences, carriage returns or bidi overrides.
 *
 * @example
 * ```ts
 * console.log(formatExplanation(await permit.explain()));
 * ```
 */
export function formatExplanation(explanation: Explanation): string {
  const resource = shown(explanation.resource);
  const action = shown(explanation.action);
  const roles = explanation.roles.map(shown);
  const id = explanation.ownership === undefined ? '' : idText(explanation.ownership.resourceId);
  const attributes = (patterns: readonly string[]) => patterns.map(shown).join(' ');
  const lines = [
    `${action} on ${resource} for roles ${roles.length === 0 ? '(none)' : roles.join(', ')}` +
      `${explanation.tenant === undefined ? '' : ` in tenant ${quoted(explanation.tenant)}`}: ` +
      `${explanation.granted ? 'GRANTED' : 'NOT GRANTED'}${explanation.ownership === undefined ? '' : ` for id ${id}`}`,
  ];
  const hint = (kind: ExplainedSuggestion['kind'], name: string) => {
    const suggestion = explanation.suggestions.find((candidate) => candidate.kind === kind && candidate.name === name);
    return suggestion === undefined ? '' : ` Did you mean ${quoted(suggestion.nearest)}?`;
  };
  if (explanation.unknownResource)
    lines.push(`  - resource ${quoted(explanation.resource)} is not named by any definition.${hint('resource', explanation.resource)}`);
  if (explanation.unknownAction && explanation.declaredActions !== undefined)
    lines.push(
      `  - action ${undeclaredActionMessage(explanation.resource, explanation.action, explanation.declaredActions)}${hint('action', explanation.action)}`,
    );
  else if (explanation.unknownAction)
    lines.push(`  - action ${quoted(explanation.action)} is not granted by any definition on any resource.${hint('action', explanation.action)}`);
  for (const role of explanation.unknownRoles) lines.push(`  - role ${quoted(role)} is not named by any definition; it is ignored.${hint('role', role)}`);
  for (const role of explanation.byRole) {
    const name = role.tenant === undefined ? shown(role.role) : `${shown(role.role)} (custom role of tenant ${quoted(role.tenant)})`;
    if (role.any !== undefined) lines.push(`  - ${name}: any, attributes ${attributes(role.any)}`);
    for (const own of role.own) lines.push(`  - ${name}: own (when ${shown(own.isOwner)} says so), attributes ${attributes(own.attributes)}`);
    for (const definition of role.definitions) lines.push(`      from ${definitionLabel(definition)} as ${definition.possession}`);
  }
  if (!explanation.unknownResource && !explanation.unknownAction && explanation.byRole.length === 0 && explanation.unknownRoles.length < roles.length) {
    lines.push(`  - no definition grants ${action} on ${resource} to ${roles.join(' or ')}.`);
  }
  if (explanation.ownership !== undefined) {
    const { checks } = explanation.ownership;
    if (explanation.anyGranted) lines.push(`  - id ${id}: granted as any, ownership not needed.`);
    else if (checks.length === 0) lines.push(`  - id ${id}: refused, no ownership hook applies.`);
    else for (const check of checks) lines.push(`  - id ${id}: ${shown(check.isOwner)} answered ${check.owned ? 'owned' : 'not owned'}.`);
    if (!explanation.granted && checks.length > 0 && checks.every((check) => !check.owned)) lines.push(`  - id ${id} refused: no ownership hook matched.`);
  }
  return lines.join('\n');
}
