/**
 * The hooks and ownership groups of the tables, interned: a hook (kind and value) is listed once however
 * many definitions name it, and definitions with the same hooks share one ownership group.
 */
import type { HookKind, HookRef, OwnerGroup } from '../tables/grant-tables.js';
import type { HookValue, ValidDefinition } from './definition-parts.js';

/**
 * Interns hooks and ownership groups in the order they are met (which fixes their indexes in the tables).
 *
 * @example
 * ```ts
 * const registry = new HookRegistry();
 * const group = registry.ownerOf(definition, 0); // undefined for a definition without hooks
 * ```
 */
export class HookRegistry {
  readonly hooks: HookRef[] = [];
  /** The hook given for each entry of `hooks` (a name or a function), in the same order. */
  readonly values: HookValue[] = [];
  readonly owners: (OwnerGroup & { definitions: number[] })[] = [];
  private readonly hookIndex = new Map<HookKind, Map<HookValue, number>>();
  private readonly ownerIndex = new Map<string, number>();

  /** The index of a hook, added when new. Functions are named by their name (or a placeholder for anonymous ones). */
  hook(kind: HookKind, value: HookValue): number {
    let byValue = this.hookIndex.get(kind);
    if (byValue === undefined) this.hookIndex.set(kind, (byValue = new Map<HookValue, number>()));
    let index = byValue.get(value);
    if (index === undefined) {
      index = this.hooks.length;
      byValue.set(value, index);
      this.hooks.push({ kind, name: typeof value === 'string' ? value : value.name || `<anonymous ${kind} #${index}>` });
      this.values.push(value);
    }
    return index;
  }

  /** The ownership group of a definition (its hooks), recording that definition `definitionNumber` uses it; undefined without hooks. */
  ownerOf(definition: ValidDefinition, definitionNumber: number): number | undefined {
    if (definition.isOwner === undefined && definition.listOwned === undefined && definition.limitOwned === undefined) return undefined;
    const group: { isOwner?: number; listOwned?: number; limitOwned?: number; definitions: number[] } = {
      ...(definition.isOwner === undefined ? {} : { isOwner: this.hook('isOwner', definition.isOwner) }),
      ...(definition.listOwned === undefined ? {} : { listOwned: this.hook('listOwned', definition.listOwned) }),
      ...(definition.limitOwned === undefined ? {} : { limitOwned: this.hook('limitOwned', definition.limitOwned) }),
      definitions: [],
    };
    const key = `${group.isOwner ?? ''}/${group.listOwned ?? ''}/${group.limitOwned ?? ''}`;
    let index = this.ownerIndex.get(key);
    if (index === undefined) {
      index = this.owners.length;
      this.ownerIndex.set(key, index);
      this.owners.push(group);
    }
    (this.owners[index] as { definitions: number[] }).definitions.push(definitionNumber);
    return index;
  }
}
