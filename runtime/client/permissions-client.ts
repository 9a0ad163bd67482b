/**
 * `createClient(slice)`: the browser's answers to "can I?", from the slice the server cut for the user
 * (`permissions.sliceFor(user)`), with the same rules as the server's Permit — including attributes per
 * ownership group. No hook runs here: the application says which groups own a record (the server's
 * `permit.owningGroups(ids)`), or just whether the user owns it.
 */
import type { ResourceActionsOf } from '../permissions/schema-types.js';
import { NOTHING, planToPatterns, unionPlans, type AttributePlan } from '../core/projection/attribute-plan.js';
import { interpretPicker, type Picker } from '../core/projection/attribute-projection.js';
import { PermissionsUsageError } from '../core/common/errors.js';
import { readSlice, type PermissionSlice, type SliceEntry as Entry } from '../core/decision/permission-slice.js';
import type { PermitReason } from '../core/decision/permit-reason.js';
import { sliceProblem } from './slice-shape.js';

/**
 * The reasons a client can give from a slice: every {@link PermitReason} but `'unknown-resource'` and
 * `'unknown-action'` — a slice lists granted actions only, so an action it does not list is `'no-grant'` (or the
 * slice's `'unknown-role'` / `'unknown-tenant'` when none of the user's roles exists).
 */
export type ClientReason = Exclude<PermitReason, 'unknown-resource' | 'unknown-action'>;

/**
 * Who owns a record, for the client: `true` (owned through every ownership group the user has), `false`
 * (not owned), or the opaque numbers of the groups that own it (what `permit.owningGroups(ids)` answers).
 */
export type Owned = boolean | readonly number[];

/** Options of a client question about one record. Without `owned`: a question about no record in particular (`can`), or a record not owned (`pick`). */
export interface OwnedOption {
  readonly owned?: Owned | undefined;
}

/** The resources of the generated `Schema` (or of a resource → action union map). */
export type ClientResource<TSchema> = Extract<keyof ResourceActionsOf<TSchema>, string>;
/** The actions of one resource of the generated `Schema` (or of a resource → action union map). */
export type ClientAction<TSchema, TResource extends keyof ResourceActionsOf<TSchema>> = Extract<ResourceActionsOf<TSchema>[TResource], string>;

/**
 * The answers of one user's slice. Typed with the generated `Schema` (`createClient<Schema>(slice)`),
 * an unknown resource, or an action the resource does not have, is a compile error.
 */
export interface PermissionsClient<TResourceActions = { readonly [resource: string]: string }> {
  /** The version of the tables the slice was cut from: compare with a fresh slice's to tell a stale one. */
  readonly version: string;
  /**
   * Whether the user may perform `action` on `resource`. Without `owned`: granted in some possession (as
   * the server's `grantPermit` without a resource id). With it: granted as any, or as own and owned.
   */
  can<R extends ClientResource<TResourceActions>>(action: ClientAction<TResourceActions, R>, resource: R, options?: OwnedOption): boolean;
  /** Whether `action` is granted on any record of `resource`. */
  canAny<R extends ClientResource<TResourceActions>>(action: ClientAction<TResourceActions, R>, resource: R): boolean;
  /** Whether `action` is granted on the user's own records of `resource` (always when `canAny`). */
  canOwn<R extends ClientResource<TResourceActions>>(action: ClientAction<TResourceActions, R>, resource: R): boolean;
  /** A copy of `item` with the attributes the user may see for `action` (`{}` when none), as the server's `permit.pick`. */
  pick<R extends ClientResource<TResourceActions>, TItem extends object>(
    action: ClientAction<TResourceActions, R>,
    resource: R,
    item: TItem,
    options?: OwnedOption,
  ): Partial<TItem>;
  /**
   * Why {@link PermissionsClient.can} answers as it does, in the server permit's words (`permit.reason`): without
   * `owned`, `'granted-any'`, `'granted-own'` or a refusal; with it, `'not-owner'` when the action is granted as own
   * only and the record is not owned.
   */
  reason<R extends ClientResource<TResourceActions>>(action: ClientAction<TResourceActions, R>, resource: R, options?: OwnedOption): ClientReason;
  /** The attribute patterns the user may see for `action` (`['*', '!confidential']`), `[]` when none. */
  attributes<R extends ClientResource<TResourceActions>>(action: ClientAction<TResourceActions, R>, resource: R, options?: OwnedOption): readonly string[];
}

const pickers = new WeakMap<AttributePlan, Picker>();

function pickerOf(plan: AttributePlan): Picker {
  let picker = pickers.get(plan);
  if (picker === undefined) pickers.set(plan, (picker = interpretPicker(plan)));
  return picker;
}

/** The group numbers of an `owned` option that lists them (anything else given from JavaScript lists none). */
function groupsOf(owned: Owned | undefined): readonly unknown[] {
  return Array.isArray(owned) ? (owned as readonly unknown[]) : [];
}

function isOwned(entry: Entry, owned: Owned | undefined): boolean {
  if (owned === true) return entry.owners.length > 0;
  return groupsOf(owned).some((group) => entry.owners.includes(group as number));
}

/** The plan for one record, as the server's Permit makes it: any attributes, plus those of the groups that own it. */
function planOf(entry: Entry, owned: Owned | undefined): AttributePlan | undefined {
  let plan: AttributePlan | undefined;
  for (const [group, ownPlan] of entry.own) {
    if (owned === true || groupsOf(owned).includes(group)) plan = unionPlans(plan ?? entry.any ?? NOTHING, ownPlan);
  }
  return plan ?? entry.any;
}

/** Throws the PermissionsUsageError of what is wrong with `slice`, if anything. */
function checkSlice(slice: PermissionSlice): void {
  const problem = sliceProblem(slice);
  if (problem !== undefined) throw notASlice(problem);
}

const notASlice = (problem: string): PermissionsUsageError =>
  new PermissionsUsageError(`createClient(slice): not a permissions slice (${problem}); pass what permissions.sliceFor(user) returned.`);

/**
 * A copy of `slice` made of plain data, each property read once: what is checked is then what is read, even when a
 * JavaScript caller hands over getters that answer differently each time. A slice holding what is not data (a
 * function) is refused.
 */
function plainCopy(slice: PermissionSlice): PermissionSlice {
  try {
    return structuredClone(slice);
  } catch (error) {
    throw notASlice(`it holds what is not data: ${(error as Error).message}`);
  }
}

/**
 * Reads a slice (`permissions.sliceFor(user)`, usually fetched from the server as JSON) into a client that
 * answers synchronously. Throws a PermissionsUsageError for anything that is not a slice of this version of
 * typed-permissions. Runs under a strict Content-Security-Policy: it never compiles code.
 *
 * @example
 * ```ts
 * import { createClient } from 'typed-permissions/client';
 * import type { Schema } from './generated/index.js';
 *
 * const client = createClient<Schema>(await (await fetch('/me/permissions')).json());
 * client.can('read', 'document', { owned: document.ownedBy }); // enable the button?
 * client.pick('read', 'document', document, { owned: document.ownedBy }); // the fields to show
 * ```
 */
export function createClient<TResourceActions = { readonly [resource: string]: string }>(given: PermissionSlice): PermissionsClient<TResourceActions> {
  // Checked as given (its depth bounded before anything recurses), then copied and checked again: the copy, read once,
  // is what the client answers from.
  checkSlice(given);
  const slice = plainCopy(given);
  checkSlice(slice);
  const entries = readSlice(slice);
  // Read once, like the entries: the client answers from the slice as it was given.
  const refusal: ClientReason = slice.refusal ?? 'no-grant';
  const entryOf = (action: unknown, resource: unknown): Entry | undefined =>
    typeof action === 'string' && typeof resource === 'string' ? entries.get(resource)?.get(action) : undefined;
  return {
    version: slice.version,
    can(action, resource, options) {
      const entry = entryOf(action, resource);
      if (entry === undefined) return false;
      if (entry.any !== undefined) return true;
      return entry.ownGranted && (options?.owned === undefined || isOwned(entry, options.owned));
    },
    reason(action, resource, options) {
      const entry = entryOf(action, resource);
      if (entry === undefined || (entry.any === undefined && !entry.ownGranted)) return refusal;
      if (entry.any !== undefined) return 'granted-any';
      return options?.owned === undefined || isOwned(entry, options.owned) ? 'granted-own' : 'not-owner';
    },
    canAny(action, resource) {
      return entryOf(action, resource)?.any !== undefined;
    },
    canOwn(action, resource) {
      const entry = entryOf(action, resource);
      return entry !== undefined && (entry.any !== undefined || entry.ownGranted);
    },
    pick<TItem extends object>(action: string, resource: string, item: TItem, options?: OwnedOption): Partial<TItem> {
      if (typeof item !== 'object' || item === null || Array.isArray(item))
        throw new PermissionsUsageError(`pick expects an object, got ${item === null ? 'null' : Array.isArray(item) ? 'an array' : typeof item}.`);
      const entry = entryOf(action, resource);
      const plan = entry === undefined ? undefined : planOf(entry, options?.owned);
      return (plan === undefined ? {} : pickerOf(plan)(item)) as Partial<TItem>;
    },
    attributes(action, resource, options) {
      const entry = entryOf(action, resource);
      const plan = entry === undefined ? undefined : planOf(entry, options?.owned);
      return plan === undefined ? [] : planToPatterns(plan);
    },
  };
}
