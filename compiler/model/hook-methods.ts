/**
 * The methods the ownership service must have, found from the definitions' hooks and the metadata's
 * ownedAmong executors: one kind per method (a method used as isOwner here and listOwned there is a
 * problem), and the id types of every resource it serves.
 */
import type { LocatedDefinition } from 'typed-permissions/internal';
import type { CompileProblem } from '../problems/compile-problem.js';
import { locationKey, problemAt } from './definition-problem.js';
import type { ReadDefinition } from '../reading/read-definitions.js';
import type { ResourceMetadata } from '../reading/read-resource-metadata.js';

/** A hook method the ownership service must have. */
export interface HookMethod {
  readonly name: string;
  readonly kind: 'isOwner' | 'listOwned' | 'limitOwned' | 'ownedAmong';
  /** The TypeScript id type of the resources it serves, e.g. `number` or `string | number`. */
  readonly idType: string;
}

/** The TypeScript id type of a resource no metadata file describes. */
export const DEFAULT_ID_TYPE = 'string | number';

/** What is known of one method while the definitions are read: its kind, the id types it serves, and where the kind was first seen. */
interface HookUse {
  readonly kind: HookMethod['kind'];
  readonly idTypes: Set<string>;
  readonly where: string;
}

/** What {@link collectHookMethods} reads. */
export interface HookSources {
  readonly metadata: ReadonlyMap<string, ResourceMetadata>;
  readonly located: readonly LocatedDefinition[];
  readonly byLocation: ReadonlyMap<string, ReadDefinition>;
  /** Every resource of the tables, for hooks of `resource: '*'`. */
  readonly resources: readonly string[];
  readonly resourceIdTypes: ReadonlyMap<string, string>;
}

function addIdTypes(use: HookUse, resources: readonly string[], resourceIdTypes: ReadonlyMap<string, string>): void {
  for (const resource of resources) for (const type of (resourceIdTypes.get(resource) ?? DEFAULT_ID_TYPE).split(' | ')) use.idTypes.add(type);
}

/** The ownedAmong executors of the metadata files: they come first, so that a definition's hook of the same name is the conflict. */
function executorUses(sources: HookSources): Map<string, HookUse> {
  const uses = new Map<string, HookUse>();
  for (const meta of sources.metadata.values()) {
    if (meta.ownedAmong === undefined) continue;
    const use = uses.get(meta.ownedAmong) ?? { kind: 'ownedAmong' as const, idTypes: new Set<string>(), where: meta.file };
    addIdTypes(use, [meta.resource], sources.resourceIdTypes);
    uses.set(meta.ownedAmong, use);
  }
  return uses;
}

/**
 * The hook methods of a valid policy, sorted by name, with a `hook-kind-conflict` problem (added to
 * `problems`) for each method used as two kinds.
 *
 * @example
 * ```ts
 * const hookMethods = collectHookMethods({ metadata, located, byLocation, resources: tables.resources, resourceIdTypes }, problems);
 * // [{ name: 'isCreator', kind: 'isOwner', idType: 'number' }, …]
 * ```
 */
export function collectHookMethods(sources: HookSources, problems: CompileProblem[]): HookMethod[] {
  const uses = executorUses(sources);
  for (const { definition, location } of sources.located) {
    const entry = sources.byLocation.get(locationKey(location.source, location.index)) as ReadDefinition;
    const resources = definition.resource === '*' ? sources.resources : [definition.resource];
    for (const kind of ['isOwner', 'listOwned', 'limitOwned'] as const) {
      const name = definition[kind];
      if (typeof name !== 'string') continue;
      const known = uses.get(name);
      if (known !== undefined && known.kind !== kind) {
        problems.push(
          problemAt(entry, [kind], {
            code: 'hook-kind-conflict',
            message: `Method ${JSON.stringify(name)} is used as ${kind} here but as ${known.kind} in ${known.where}; one method cannot be both.`,
            fix: 'Give each hook kind its own method name.',
          }),
        );
        continue;
      }
      const use = known ?? { kind, idTypes: new Set<string>(), where: `${entry.file} definition ${entry.index}` };
      addIdTypes(use, resources, sources.resourceIdTypes);
      uses.set(name, use);
    }
  }
  return [...uses]
    .map(([name, { kind, idTypes }]) => ({ name, kind, idType: [...idTypes].sort().reverse().join(' | ') || DEFAULT_ID_TYPE }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
