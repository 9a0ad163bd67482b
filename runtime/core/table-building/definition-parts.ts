/**
 * The parts of a valid definition the table builder reads, and the definition types it reads them from.
 */
import type { Possession } from '../definition/definition-types.js';
import type { DefinitionLocation } from '../common/errors.js';

/** A hook as given in a definition: a method name of the ownership service, or a function. */
export type HookValue = string | ((...args: never[]) => unknown);

/** A definition that passed `validateDefinition`. */
export interface ValidDefinition {
  readonly roles: string | readonly string[];
  readonly resource: string;
  readonly descr?: string | undefined;
  readonly possession?: Possession | undefined;
  readonly grant: readonly string[] | Readonly<Record<string, readonly string[]>>;
  readonly isOwner?: HookValue | undefined;
  readonly listOwned?: HookValue | undefined;
  readonly limitOwned?: HookValue | undefined;
  /** The ownership rule of the resource that decides ownership, in place of hooks. */
  readonly owner?: string | undefined;
}

/** A definition with where it came from. */
export interface LocatedDefinition {
  readonly definition: ValidDefinition;
  readonly location: DefinitionLocation;
}

/**
 * The grant entries of a definition as `[key, patterns, path]`: the array form grants every attribute.
 *
 * @example
 * ```ts
 * grantEntries({ roles: 'A', resource: 'doc', grant: ['read'] }); // [['read', ['*'], ['grant', 0]]]
 * ```
 */
export function grantEntries(definition: ValidDefinition): [key: string, patterns: readonly string[], path: (string | number)[]][] {
  if (Array.isArray(definition.grant)) return (definition.grant as readonly string[]).map((key, i) => [key, ['*'], ['grant', i]]);
  return Object.entries(definition.grant as Readonly<Record<string, readonly string[]>>).map(([key, patterns]) => [key, patterns, ['grant', key]]);
}

/**
 * The roles of a definition as a list.
 *
 * @example
 * ```ts
 * rolesOf({ roles: 'ADMIN', resource: '*', grant: ['*'] }); // ['ADMIN']
 * ```
 */
export function rolesOf(definition: ValidDefinition): readonly string[] {
  return typeof definition.roles === 'string' ? [definition.roles] : definition.roles;
}

/** Numbers as people read them in messages: `250,000`. */
export const formatCount = (n: number): string => n.toLocaleString('en-US');
