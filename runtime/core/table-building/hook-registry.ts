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
  /** The ownership rules definitions name, as `[resource, rule]`, in the order met (`rule` of a group indexes it). */
  readonly rules: (readonly [resource: string, name: string])[] = [];
  private readonly hookIndex = new Map<HookKind, Map<HookValue, number>>();
  private readonly ownerIndex = new Map<string, number>();
  private readonly ruleIndex = new Map<string, number>();

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
    if (definition.owner !== undefined) return this.group({ rule: this.rule(definition.resource, definition.owner), definitions: [] }, definitionNumber);
    if (definition.isOwner === undefined && definition.listOwned === undefined && definition.limitOwned === undefined) return undefined;
    const group: { isOwner?: number; listOwned?: number; limitOwned?: number; definitions: number[] } = {
      ...(definition.isOwner === undefined ? {} : { isOwner: this.hook('isOwner', definition.isOwner) }),
      ...(definition.listOwned === undefined ? {} : { listOwned: this.hook('listOwned', definition.listOwned) }),
      ...(definition.limitOwned === undefined ? {} : { limitOwned: this.hook('limitOwned', definition.limitOwned) }),
      definitions: [],
    };
    return this.group(group, definitionNumber);
  }

  /** The index of rule `name` of `resource` in `rules`, added when new. */
  private rule(resource: string, name: string): number {
    const key = `${resource}\u0000${name}`;
    let index = this.ruleIndex.get(key);
    if (index === undefined) {
      this.ruleIndex.set(key, (index = this.rules.length));
      this.rules.push([resource, name]);
    }
    return index;
  }

  /** The index of the group with the hooks (or rule) of `group`, added when new, recording that definition `definitionNumber` uses it. */
  private group(group: OwnerGroup & { definitions: number[] }, definitionNumber: number): number {
    const key = group.rule === undefined ? `${group.isOwner ?? ''}/${group.listOwned ?? ''}/${group.limitOwned ?? ''}` : `rule ${group.rule}`;
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
