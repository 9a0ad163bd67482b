/**
 * The exact difference between two compiled policies. Compiled tables are finite — every (role, resource, action,
 * possession) cell a policy grants is a row — so the difference is read cell by cell, not estimated: what was
 * gained or lost, whose visible attributes widened or narrowed, whose ownership changed, and which names came or
 * went. Its cost is one pass over the cells of both sides, so it is bounded by the tables' own limits.
 */
import {
  describeRule,
  groupOwnershipLabel,
  planFromJson,
  planToJson,
  planToPatterns,
  resourceCells,
  unionPlans,
  type AttributePlanJson,
  type GrantCell,
  type GrantTables,
  type OwnershipCondition,
} from 'typed-permissions/internal';

/** A cell's possession: granted on any record, or on the records the user owns. */
export type Possession = 'any' | 'own';

/** A cell one side grants and the other does not. */
export interface CellChange {
  readonly change: 'gained' | 'lost';
  readonly role: string;
  readonly resource: string;
  readonly action: string;
  readonly possession: Possession;
  /** The attribute patterns the side that grants it shows (for `own`, the union over its ownership groups). */
  readonly attributes: readonly string[];
  /** For `own`: how ownership is decided (a rule `rule <name>`, or hook methods), sorted; empty for `any`. */
  readonly ownership: readonly string[];
}

/** A cell both sides grant whose visible attributes differ. */
export interface AttributeChange {
  readonly role: string;
  readonly resource: string;
  readonly action: string;
  readonly possession: Possession;
  /** `widened`: everything visible before still is, and more; `narrowed`: the reverse; `changed`: both. */
  readonly change: 'widened' | 'narrowed' | 'changed';
  /**
   * `declared`: the resource declares its attributes, and `added`/`removed` are the declared attributes that
   * became visible or hidden, with {@link UNDECLARED_ATTRIBUTES} when one side keeps fields outside the declared
   * list (`*`) and the other does not; `patterns`: it does not, and they are the canonical patterns added or removed.
   */
  readonly basis: 'declared' | 'patterns';
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** The canonical patterns of each side. */
  readonly before: readonly string[];
  readonly after: readonly string[];
  /**
   * For an `own` cell with several ownership groups: the group (its label, `rule <name>` or hook methods) on whose
   * records the attributes changed — a record owned through one group shows that group's attributes only, so each
   * is compared on its own. Absent for one group, or when the cell's groups changed (then the attributes shown on
   * records owned through all of them are compared, and `ownership` lists the change of groups).
   */
  readonly ownership?: string | undefined;
}

/**
 * An own cell both sides grant whose ownership differs: another rule or other hook methods, or a rule or hook
 * methods of the same name that now decide otherwise (a rule's condition, a hook of another kind).
 */
export interface OwnershipChange {
  readonly role: string;
  readonly resource: string;
  readonly action: string;
  /** The groups' labels (`rule <name>`, or the hook method that names the group), sorted. */
  readonly before: readonly string[];
  readonly after: readonly string[];
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** Labels both sides have whose rule or hooks changed: the same name decides otherwise. */
  readonly redefined: readonly string[];
  /**
   * How each side's groups decide, in full, sorted: `rule creator: creatorId is the user's id`, or every hook
   * by kind (`isOwner isCreator, listOwned listCreated`).
   */
  readonly definitionsBefore: readonly string[];
  readonly definitionsAfter: readonly string[];
}

/** What a resource both sides have declares, when it changed: its id type, its actions. */
export interface DeclarationChange {
  readonly resource: string;
  /** Its id type on each side, or null where it declares none; absent when the same. */
  readonly idType?: { readonly before: string | null; readonly after: string | null } | undefined;
  /**
   * The actions it declares on each side, or null where it declares none (any action may be asked of it); absent
   * when the same. A declared action no role is granted changes what may be asked, so it is a change.
   */
  readonly actions?:
    | {
        readonly before: readonly string[] | null;
        readonly after: readonly string[] | null;
        readonly added: readonly string[];
        readonly removed: readonly string[];
      }
    | undefined;
}

/** Names one side has and the other does not, sorted. */
export interface NameChanges {
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

/** The counts of a diff. */
export interface PolicyDiffSummary {
  readonly cellsGained: number;
  readonly cellsLost: number;
  readonly attributesWidened: number;
  readonly attributesNarrowed: number;
  readonly attributesChanged: number;
  readonly ownershipChanged: number;
  /** Resources whose id type or declared actions changed. */
  readonly declarationsChanged: number;
  readonly rolesAdded: number;
  readonly rolesRemoved: number;
  readonly resourcesAdded: number;
  readonly resourcesRemoved: number;
  readonly actionsAdded: number;
  readonly actionsRemoved: number;
  /** Whether anything at all differs. */
  readonly changed: boolean;
}

/** The difference between two policies; every list sorted by resource, action, role, possession. */
export interface PolicyDiff {
  readonly format: 1;
  /** What the sides are, as the caller named them (a folder, a bundle, a store version). */
  readonly before: string;
  readonly after: string;
  readonly roles: NameChanges;
  readonly resources: NameChanges;
  readonly actions: NameChanges;
  readonly cells: readonly CellChange[];
  readonly attributes: readonly AttributeChange[];
  readonly ownership: readonly OwnershipChange[];
  readonly declarations: readonly DeclarationChange[];
  readonly summary: PolicyDiffSummary;
}

/** What one side grants in one cell. */
interface CellGrant {
  readonly plan: AttributePlanJson;
  /** The labels of its ownership groups, sorted. */
  readonly ownership: readonly string[];
  /** The definitions of its ownership groups ({@link groupDefinition}), sorted: what ownership is compared by. */
  readonly definitions: readonly string[];
  /** For `own`: the label and plan of each ownership group, by its definition. */
  readonly groups?: ReadonlyMap<string, { readonly label: string; readonly plan: AttributePlanJson }>;
}

/** One (role, resource, action) of one side: its `any` and `own` grants, each when granted. */
interface TripleGrant {
  readonly role: string;
  readonly resource: string;
  readonly action: string;
  readonly any?: CellGrant;
  readonly own?: CellGrant;
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const sorted = (names: Iterable<string>): string[] => [...new Set(names)].sort(byCodeUnit);

function nameChanges(before: readonly string[], after: readonly string[]): NameChanges {
  const had = new Set(before);
  const has = new Set(after);
  return { added: sorted(after.filter((name) => !had.has(name))), removed: sorted(before.filter((name) => !has.has(name))) };
}

/** The key of a (resource, action, role): names joined by a character no JSON-escaped name holds unescaped. */
const tripleKey = (resource: string, action: string, role: string): string => JSON.stringify([resource, action, role]);

/** The attribute paths and user attributes a rule's condition reads, and whether it reads the tenant's id. */
function conditionReads(condition: OwnershipCondition, reads = { paths: new Set<string>(), users: new Set<string>(), tenant: false }) {
  if ('all' in condition || 'any' in condition) {
    for (const part of 'all' in condition ? condition.all : condition.any) conditionReads(part, reads);
    return reads;
  }
  reads.paths.add(condition.attribute);
  const value = 'equals' in condition ? condition.equals : condition.in;
  if (!Array.isArray(value) && 'user' in value) reads.users.add(value.user);
  if (!Array.isArray(value) && 'tenant' in value) reads.tenant = true;
  return reads;
}

/**
 * A rule in full: its condition in words, and what else decides what it selects — the type of each user
 * attribute it reads, each relation its paths walk through, and the type of the tenant id it compares.
 */
function ruleDefinition(tables: GrantTables, rule: NonNullable<GrantTables['ownershipRules']>['rules'][number]): string {
  const reads = conditionReads(rule.condition);
  const details = sorted(reads.users).map((name) => `user.${name} ${rule.userAttributes[name] ?? 'undeclared'}`);
  const relations = tables.ownershipRules?.relations ?? {};
  for (const path of sorted(reads.paths)) {
    let from = rule.resource;
    for (const name of path.split('.').slice(0, -1)) {
      const declared = Object.hasOwn(relations, from) ? relations[from] : undefined;
      const relation = declared !== undefined && Object.hasOwn(declared, name) ? declared[name] : undefined;
      details.push(`${from}.${name} ${relation === undefined ? 'undeclared' : `${relation.resource} on ${relation.on}`}`);
      if (relation === undefined) break;
      from = relation.resource;
    }
  }
  if (reads.tenant) details.push(`tenant id ${rule.tenantIdType ?? 'string'}`);
  const text = `rule ${rule.name}: ${describeRule(rule.condition)}`;
  return details.length === 0 ? text : `${text} (${sorted(details).join('; ')})`;
}

/**
 * How ownership group `group` of resource number `resource` decides, in full: its rule ({@link ruleDefinition}),
 * or every hook by kind and name, with the resource's ownedAmong where limitOwned is run by it. Two groups of the
 * same label (`rule creator`, `isCreator`) that decide otherwise have different definitions.
 */
function groupDefinition(tables: GrantTables, group: number, resource: number): string {
  const owner = tables.owners[group];
  const rule = owner?.rule === undefined ? undefined : tables.ownershipRules?.rules[owner.rule];
  if (rule !== undefined) return ruleDefinition(tables, rule);
  const hook = (index: number | undefined) => (index === undefined || index === -1 ? undefined : tables.hooks[index]?.name);
  const hooks = [
    ['isOwner', hook(owner?.isOwner)],
    ['listOwned', hook(owner?.listOwned)],
    ['limitOwned', hook(owner?.limitOwned)],
    ['ownedAmong', owner?.limitOwned === undefined ? undefined : hook(tables.ownedAmong?.[resource])],
  ] as const;
  return hooks
    .filter(([, name]) => name !== undefined)
    .map(([kind, name]) => `${kind} ${name}`)
    .join(', ');
}

/** Every granted (role, resource, action) of `tables`, keyed by {@link tripleKey}. */
function grantsOf(tables: GrantTables): Map<string, TripleGrant> {
  const grants = new Map<string, TripleGrant>();
  tables.resources.forEach((resource, resourceIndex) => {
    const { cells, start, end } = resourceCells(tables, resourceIndex);
    for (let i = start; i < end; i++) {
      const [, actionIndex, roleIndex, anyPlan, own] = cells[i] as GrantCell;
      const action = tables.actions[actionIndex] as string;
      const role = tables.roles[roleIndex] as string;
      const anyJson = anyPlan === -1 ? undefined : (tables.plans[anyPlan] as AttributePlanJson);
      // As the engine decides: `any` is granted when its plan keeps an attribute; `own` whenever a group grants it.
      const any =
        anyJson !== undefined && planFromJson(anyJson).allowsAny ? { plan: planToJson(planFromJson(anyJson)), ownership: [], definitions: [] } : undefined;
      let ownPlan = planFromJson([0, []]);
      // By definition, not label: a rule or hook of the same name that decides otherwise is another group.
      const groups = new Map<string, { label: string; plan: AttributePlanJson }>();
      for (let j = 0; j < own.length; j += 2) {
        const plan = planFromJson(tables.plans[own[j + 1] as number] as AttributePlanJson);
        ownPlan = unionPlans(ownPlan, plan);
        const group = own[j] as number;
        groups.set(groupDefinition(tables, group, resourceIndex), { label: groupOwnershipLabel(tables, group, resourceIndex), plan: planToJson(plan) });
      }
      const ownGrant =
        own.length === 0
          ? undefined
          : { plan: planToJson(ownPlan), ownership: sorted([...groups.values()].map(({ label }) => label)), definitions: sorted(groups.keys()), groups };
      if (any === undefined && ownGrant === undefined) continue;
      grants.set(tripleKey(resource, action, role), {
        role,
        resource,
        action,
        ...(any === undefined ? {} : { any }),
        ...(ownGrant === undefined ? {} : { own: ownGrant }),
      });
    }
  });
  return grants;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

const WHOLE: AttributePlanJson = [1, []];
const NOTHING: AttributePlanJson = [0, []];

/**
 * What `plan` keeps of the value at the dotted `path`, as a plan of that value: all of it, nothing, or the parts a
 * plan for it keeps (`address` of a plan keeping `address.city` only: a plan keeping `city`).
 */
function planAtPath(plan: AttributePlanJson, path: string): AttributePlanJson {
  let node: AttributePlanJson = plan;
  for (const key of path.split('.')) {
    const [all, children] = node;
    const child = children.find(([name]) => name === key);
    if (child === undefined) return all === 1 ? WHOLE : NOTHING;
    if (child[1] === null) return all === 0 ? WHOLE : NOTHING;
    node = child[1];
  }
  return planToJson(planFromJson(node));
}

/** How what `after` shows of `path` compares with what `before` shows: the same, more, less, or some of each. */
function pathChange(before: AttributePlanJson, after: AttributePlanJson, path: string): 'same' | 'more' | 'less' | 'other' {
  const was = planAtPath(before, path);
  const is = planAtPath(after, path);
  if (sameJson(was, is)) return 'same';
  const union = planToJson(unionPlans(planFromJson(was), planFromJson(is)));
  return sameJson(union, is) ? 'more' : sameJson(union, was) ? 'less' : 'other';
}

/** The declared attributes of `resource` on both sides, when both declare them (else undefined: compare patterns). */
function declaredAttributes(before: GrantTables, after: GrantTables, resource: string): readonly string[] | undefined {
  const of = (tables: GrantTables) => {
    const index = tables.resources.indexOf(resource);
    return index === -1 ? undefined : (tables.attributes?.[index] ?? undefined);
  };
  const had = of(before);
  const has = of(after);
  return had === undefined || has === undefined ? undefined : sorted([...had, ...has]);
}

/**
 * The entry of `added` or `removed` for the attributes a resource does not declare: a plan that keeps them (`*`,
 * `["*", "!title"]`) lets `pick()` return every field of a record outside the declared list, a plan that names
 * declared attributes only does not.
 */
export const UNDECLARED_ATTRIBUTES = '(undeclared attributes)';

/** The declared paths as a tree: a leaf (`true`) is declared whole, a node declares only some of its parts. */
type DeclaredTree = Map<string, DeclaredTree | true>;

function declaredTree(paths: readonly string[]): DeclaredTree {
  const root: DeclaredTree = new Map();
  for (const path of paths) {
    let node = root;
    const keys = path.split('.');
    keys.forEach((key, i) => {
      const child = node.get(key);
      if (i === keys.length - 1 || child === true) {
        node.set(key, true);
        return;
      }
      const next = child ?? new Map<string, DeclaredTree | true>();
      node.set(key, next);
      node = next;
    });
  }
  return root;
}

/**
 * Whether `plan` keeps a field outside the declared attributes: any field where it keeps all but some (`*`), or a
 * field it names that is not declared, or all of one of which only some parts are declared.
 */
function keepsUndeclared(plan: AttributePlanJson, declared: DeclaredTree): boolean {
  const [all, children] = plan;
  if (all === 1) return true;
  return children.some(([key, child]) => {
    const node = declared.get(key);
    if (node === true) return false;
    if (node === undefined) return child === null || planFromJson(child).allowsAny;
    return child === null || keepsUndeclared(child, node);
  });
}

function attributeChange(
  triple: { role: string; resource: string; action: string },
  possession: Possession,
  before: AttributePlanJson,
  after: AttributePlanJson,
  declared: readonly string[] | undefined,
): AttributeChange | undefined {
  if (sameJson(before, after)) return undefined;
  const beforePatterns = planToPatterns(planFromJson(before));
  const afterPatterns = planToPatterns(planFromJson(after));
  let added: string[];
  let removed: string[];
  if (declared !== undefined) {
    // A declared attribute of which more is shown is added, one of which less is shown removed (`address` kept whole
    // where only `address.city` was: added); one shown otherwise, some parts gained and others lost, is both.
    const changes = declared.map((path) => [path, pathChange(before, after, path)] as const);
    added = changes.filter(([, change]) => change === 'more' || change === 'other').map(([path]) => path);
    removed = changes.filter(([, change]) => change === 'less' || change === 'other').map(([path]) => path);
    // Fields outside the declared list are still returned by pick(): keeping them or not is a change too.
    const tree = declaredTree(declared);
    const undeclared = [keepsUndeclared(before, tree), keepsUndeclared(after, tree)];
    if (undeclared[1] && !undeclared[0]) added.push(UNDECLARED_ATTRIBUTES);
    if (undeclared[0] && !undeclared[1]) removed.push(UNDECLARED_ATTRIBUTES);
    // Patterns that differ without changing what any declared attribute shows change nothing a reader can see.
    if (added.length === 0 && removed.length === 0) return undefined;
  } else {
    added = sorted(afterPatterns.filter((pattern) => !beforePatterns.includes(pattern)));
    removed = sorted(beforePatterns.filter((pattern) => !afterPatterns.includes(pattern)));
  }
  // Plans are compared exactly by inclusion: the union with a plan it includes is that plan.
  const union = planToJson(unionPlans(planFromJson(before), planFromJson(after)));
  const widened = declared !== undefined ? removed.length === 0 : sameJson(union, after);
  const narrowed = declared !== undefined ? added.length === 0 : sameJson(union, before);
  return {
    ...triple,
    possession,
    change: widened ? 'widened' : narrowed ? 'narrowed' : 'changed',
    basis: declared === undefined ? 'patterns' : 'declared',
    added,
    removed,
    before: beforePatterns,
    after: afterPatterns,
  };
}

/**
 * The attribute changes of a cell both sides grant. An `own` cell of several ownership groups, the same on both
 * sides, is compared group by group: a record owned through one group shows that group's attributes, so a change
 * of one group's is a change a reader must see even when the union over the groups stays the same.
 */
function attributeChanges(
  triple: { role: string; resource: string; action: string },
  possession: Possession,
  was: CellGrant,
  is: CellGrant,
  declared: readonly string[] | undefined,
): AttributeChange[] {
  const severalGroups = (was.groups?.size ?? 0) > 1 || (is.groups?.size ?? 0) > 1;
  if (possession === 'any' || !severalGroups || !sameJson(was.definitions, is.definitions)) {
    const change = attributeChange(triple, possession, was.plan, is.plan, declared);
    return change === undefined ? [] : [change];
  }
  return was.definitions.flatMap((definition) => {
    const before = was.groups?.get(definition);
    const change = attributeChange(triple, possession, before?.plan ?? NOTHING, is.groups?.get(definition)?.plan ?? NOTHING, declared);
    return change === undefined ? [] : [{ ...change, ownership: before?.label ?? '' }];
  });
}

/** How ownership of an own cell changed from `was` to `is`, whose group definitions differ. */
function ownershipChange(triple: { role: string; resource: string; action: string }, was: CellGrant, is: CellGrant): OwnershipChange {
  const labelsOf = (grant: CellGrant, definitions: readonly string[]) => definitions.map((definition) => grant.groups?.get(definition)?.label ?? '');
  const kept = was.ownership.filter((label) => is.ownership.includes(label));
  const gone = labelsOf(
    was,
    was.definitions.filter((definition) => !is.definitions.includes(definition)),
  );
  const come = labelsOf(
    is,
    is.definitions.filter((definition) => !was.definitions.includes(definition)),
  );
  return {
    ...triple,
    before: was.ownership,
    after: is.ownership,
    added: is.ownership.filter((label) => !was.ownership.includes(label)),
    removed: was.ownership.filter((label) => !is.ownership.includes(label)),
    redefined: kept.filter((label) => gone.includes(label) || come.includes(label)),
    definitionsBefore: was.definitions,
    definitionsAfter: is.definitions,
  };
}

/** The id types and declared actions of the resources both sides have, where they differ; sorted by resource. */
function declarationChanges(before: GrantTables, after: GrantTables): DeclarationChange[] {
  const changes: DeclarationChange[] = [];
  const actionsOf = (tables: GrantTables, index: number) =>
    tables.declaredActions?.[index]?.map((action) => tables.actions[action] as string).sort(byCodeUnit) ?? null;
  for (const resource of sorted(before.resources)) {
    const was = before.resources.indexOf(resource);
    const is = after.resources.indexOf(resource);
    if (is === -1) continue;
    const idType = { before: before.idTypes?.[was] ?? null, after: after.idTypes?.[is] ?? null };
    const actions = { before: actionsOf(before, was), after: actionsOf(after, is) };
    const change: DeclarationChange = {
      resource,
      ...(idType.before === idType.after ? {} : { idType }),
      ...(sameJson(actions.before, actions.after) ? {} : { actions: { ...actions, ...nameChanges(actions.before ?? [], actions.after ?? []) } }),
    };
    if (change.idType !== undefined || change.actions !== undefined) changes.push(change);
  }
  return changes;
}

function cellChange(change: 'gained' | 'lost', triple: TripleGrant, possession: Possession, grant: CellGrant): CellChange {
  const { role, resource, action } = triple;
  return { change, role, resource, action, possession, attributes: planToPatterns(planFromJson(grant.plan)), ownership: grant.ownership };
}

const order = (a: { resource: string; action: string; role: string }, b: { resource: string; action: string; role: string }): number =>
  byCodeUnit(a.resource, b.resource) || byCodeUnit(a.action, b.action) || byCodeUnit(a.role, b.role);

const possessionOrder = (a: { possession: Possession }, b: { possession: Possession }): number =>
  a.possession === b.possession ? 0 : a.possession === 'any' ? -1 : 1;

/**
 * The one-line summary of a diff, as `policy publish` prints and records it: `+12 −3 cells, 2 attribute sets
 * widened`, or `no change`.
 *
 * @example
 * ```ts
 * summaryLine(diffPolicies(before, after, { before: 'main', after: 'branch' }).summary); // '+1 −0 cells, 1 attribute set narrowed'
 * ```
 */
export function summaryLine(summary: PolicyDiffSummary): string {
  if (!summary.changed) return 'no change';
  const parts = [`+${summary.cellsGained} −${summary.cellsLost} cells`];
  const sets = (count: number, what: string) => {
    if (count > 0) parts.push(`${count} attribute ${count === 1 ? 'set' : 'sets'} ${what}`);
  };
  sets(summary.attributesWidened, 'widened');
  sets(summary.attributesNarrowed, 'narrowed');
  sets(summary.attributesChanged, 'changed');
  if (summary.ownershipChanged > 0) parts.push(`${summary.ownershipChanged} ownership ${summary.ownershipChanged === 1 ? 'change' : 'changes'}`);
  if (summary.declarationsChanged > 0)
    parts.push(`declarations of ${summary.declarationsChanged} ${summary.declarationsChanged === 1 ? 'resource' : 'resources'} changed`);
  const names = (added: number, removed: number, what: string) => {
    if (added + removed > 0) parts.push(`${what} +${added} −${removed}`);
  };
  names(summary.rolesAdded, summary.rolesRemoved, 'roles');
  names(summary.resourcesAdded, summary.resourcesRemoved, 'resources');
  names(summary.actionsAdded, summary.actionsRemoved, 'actions');
  return parts.join(', ');
}

/**
 * The exact difference from `before` to `after`: every cell gained or lost, every attribute set widened, narrowed
 * or changed, every change of ownership (also a rule or hook of the same name that decides otherwise), every change
 * of a resource's id type or declared actions, and the roles, resources and actions added or removed. Sorted and
 * deterministic: the same tables give the same diff, byte for byte. Tables of any form (packed or not) are read
 * through the runtime's own accessors; the cost is one pass over both sides' cells.
 *
 * @example
 * ```ts
 * const diff = diffPolicies(mainTables, branchTables, { before: 'main', after: 'definitions' });
 * if (diff.summary.changed) console.log(summaryLine(diff.summary));
 * ```
 */
export function diffPolicies(before: GrantTables, after: GrantTables, labels: { readonly before: string; readonly after: string }): PolicyDiff {
  const had = grantsOf(before);
  const has = grantsOf(after);
  const cells: CellChange[] = [];
  const attributes: AttributeChange[] = [];
  const ownership: OwnershipChange[] = [];
  const declaredCache = new Map<string, readonly string[] | undefined>();
  const declared = (resource: string) => {
    if (!declaredCache.has(resource)) declaredCache.set(resource, declaredAttributes(before, after, resource));
    return declaredCache.get(resource);
  };
  for (const [key, old] of had) {
    const now = has.get(key);
    for (const possession of ['any', 'own'] as const) {
      const was = old[possession];
      const is = now?.[possession];
      if (was !== undefined && is === undefined) cells.push(cellChange('lost', old, possession, was));
      if (was === undefined || is === undefined) continue;
      const triple = { role: old.role, resource: old.resource, action: old.action };
      attributes.push(...attributeChanges(triple, possession, was, is, declared(old.resource)));
      if (possession === 'own' && !sameJson(was.definitions, is.definitions)) ownership.push(ownershipChange(triple, was, is));
    }
  }
  for (const [key, now] of has) {
    const old = had.get(key);
    for (const possession of ['any', 'own'] as const) {
      const is = now[possession];
      if (is !== undefined && old?.[possession] === undefined) cells.push(cellChange('gained', now, possession, is));
    }
  }
  cells.sort((a, b) => order(a, b) || possessionOrder(a, b) || byCodeUnit(a.change, b.change));
  attributes.sort((a, b) => order(a, b) || possessionOrder(a, b) || byCodeUnit(a.ownership ?? '', b.ownership ?? ''));
  ownership.sort(order);
  const roles = nameChanges(before.roles, after.roles);
  const resources = nameChanges(before.resources, after.resources);
  const actions = nameChanges(before.actions, after.actions);
  const declarations = declarationChanges(before, after);
  const count = <T>(list: readonly T[], test: (item: T) => boolean) => list.filter(test).length;
  const summary = {
    cellsGained: count(cells, (cell) => cell.change === 'gained'),
    cellsLost: count(cells, (cell) => cell.change === 'lost'),
    attributesWidened: count(attributes, (change) => change.change === 'widened'),
    attributesNarrowed: count(attributes, (change) => change.change === 'narrowed'),
    attributesChanged: count(attributes, (change) => change.change === 'changed'),
    ownershipChanged: ownership.length,
    declarationsChanged: declarations.length,
    rolesAdded: roles.added.length,
    rolesRemoved: roles.removed.length,
    resourcesAdded: resources.added.length,
    resourcesRemoved: resources.removed.length,
    actionsAdded: actions.added.length,
    actionsRemoved: actions.removed.length,
  };
  const changed = Object.values(summary).some((value) => value > 0);
  return {
    format: 1,
    before: labels.before,
    after: labels.after,
    roles,
    resources,
    actions,
    cells,
    attributes,
    ownership,
    declarations,
    summary: { ...summary, changed },
  };
}
