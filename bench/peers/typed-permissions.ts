/**
 * This library in the bench: `Permissions` built at run time (`addPermissions` + `build()`), and the
 * typed face the generated `createPermissions` returns (`permissionsFromTables(…).typed<Schema>()` over the same tables).
 */
import {
  Permissions,
  permissionsFromTables,
  type GrantTables,
  type PermissionDefinition,
  type PermissionsSchema,
  type TypedPermissions,
} from '../../runtime/permissions/index.js';
import type { FillerRecord, Scenario } from '../scenario.js';
import type { CountingOwnership } from './counting-ownership.js';
import type { BenchUser, Decider, DecisionQuery, FilterPicker, Picker } from './peer.js';

/** The schema type of the bench's tables: made at run time, so every resource has every action. */
export interface BenchSchema extends PermissionsSchema {
  readonly resources: { readonly [resource: string]: { readonly actions: string; readonly id: number } };
}

/** Warnings (none are expected) are not benchmark output. */
const silentLogger = { warn: (): void => undefined };

/**
 * `new Permissions` + `addPermissions` + `build()` over the scenario, with the example's ownedAmong
 * executor (`document` → `ownedDocumentsAmong`), as the compiler reads it from document.resource.json.
 *
 * @example
 * ```ts
 * const permissions = buildPermissions(createScenario(10), new CountingOwnership());
 * ```
 */
export function buildPermissions(scenario: Scenario, ownership: CountingOwnership): Permissions<BenchUser> {
  // The JSON form (hook names as strings) is what the scenario holds; addPermissions' parameter type does not accept it as such.
  const definitions = scenario.definitions as unknown as readonly PermissionDefinition[];
  return new Permissions<BenchUser>({ ownership, ownedAmong: scenario.ownedAmong, logger: silentLogger })
    .addPermissions(definitions, { source: `scenario ${scenario.scale}x` })
    .build();
}

/**
 * What the generated `createPermissions` does: load precomputed tables without rebuilding.
 *
 * @example
 * ```ts
 * const typed = loadTypedPermissions(buildPermissions(scenario, ownership).tables, ownership);
 * ```
 */
export function loadTypedPermissions(tables: GrantTables, ownership: CountingOwnership): TypedPermissions<BenchSchema, BenchUser, unknown> {
  return permissionsFromTables<BenchUser, unknown>(tables, { ownership, logger: silentLogger }).typed<BenchSchema>();
}

const at = (queries: readonly DecisionQuery[], i: number): DecisionQuery => queries[i] as DecisionQuery;

/**
 * The four decision paths: grantPermitSync, awaited grantPermit, and both through the typed wrapper.
 *
 * @example
 * ```ts
 * typedPermissionsDeciders(subjects.permissions, subjects.typed).map((decider) => decider.name); // ['grantPermitSync', …]
 * ```
 */
export function typedPermissionsDeciders(permissions: Permissions<BenchUser>, typed: TypedPermissions<BenchSchema, BenchUser, unknown>): Decider[] {
  return [
    { name: 'grantPermitSync', crudOnly: false, prepare: (queries) => Promise.resolve((i: number) => permissions.grantPermitSync(at(queries, i)).granted) },
    {
      name: 'grantPermit (await)',
      crudOnly: false,
      prepare: (queries) => Promise.resolve(async (i: number) => (await permissions.grantPermit(at(queries, i))).granted),
    },
    { name: 'typed grantPermitSync', crudOnly: false, prepare: (queries) => Promise.resolve((i: number) => typed.grantPermitSync(at(queries, i)).granted) },
    {
      name: 'typed grantPermit (await)',
      crudOnly: false,
      prepare: (queries) => Promise.resolve(async (i: number) => (await typed.grantPermit(at(queries, i))).granted),
    },
  ];
}

/**
 * `permit.pickSync(item)` and `await permit.pick(item)`; the permit is granted once, like once per request.
 *
 * @example
 * ```ts
 * const [pickSync] = typedPermissionsPickers(subjects.permissions);
 * (await pickSync.prepare(pickCase))(record); // the record with the allowed attributes
 * ```
 */
export function typedPermissionsPickers(permissions: Permissions<BenchUser>): Picker[] {
  return [
    {
      name: 'pickSync',
      prepare: (pickCase) => {
        const permit = permissions.grantPermitSync(pickCase);
        return Promise.resolve((item: FillerRecord) => permit.pickSync(item));
      },
    },
    {
      name: 'pick (await)',
      prepare: async (pickCase) => {
        const permit = await permissions.grantPermit(pickCase);
        return (item) => permit.pick(item);
      },
    },
  ];
}

/**
 * `grantPermit` then `filterPick`, per request: the listOwned hook is called once per permit.
 *
 * @example
 * ```ts
 * const filterPick = await typedPermissionsFilterPicker(subjects.permissions).prepare(pickCase);
 * await filterPick(records); // one grantPermit, one listOwned call
 * ```
 */
export function typedPermissionsFilterPicker(permissions: Permissions<BenchUser>): FilterPicker {
  return {
    name: 'grantPermit + filterPick',
    prepare: (pickCase) => Promise.resolve(async (items: readonly FillerRecord[]) => (await permissions.grantPermit(pickCase)).filterPick(items)),
  };
}
