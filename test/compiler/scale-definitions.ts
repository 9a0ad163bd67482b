/**
 * Writes large, valid definitions folders for the scale test: `roles` roles, `resources` resources (one
 * definitions file and one metadata file each) and `actions` actions (CRUD plus custom ones). Deterministic: the
 * same sizes always give the same files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The sizes of a generated folder. */
export interface ScaleSize {
  readonly roles: number;
  readonly resources: number;
  /** At least 6: the CRUD actions, `list`, and at least one custom action. */
  readonly actions: number;
  /**
   * The share of the roles that read each resource (default 0.1); half as many own records of it, a quarter as
   * many manage it. The grants grow linearly with it: about `resources × roles × share × (5 + actions / 4)`.
   */
  readonly share?: number;
}

/** What was written, for assertions. */
export interface ScaleFolder {
  readonly roles: readonly string[];
  readonly resources: readonly string[];
  readonly actions: readonly string[];
  readonly files: number;
  readonly definitions: number;
}

const CRUD = ['create', 'read', 'update', 'delete'] as const;
const pad = (n: number) => String(n).padStart(3, '0');

/** `count` consecutive items of `list` starting at `start`, wrapping around. */
function slice<T>(list: readonly T[], start: number, count: number): T[] {
  return Array.from({ length: Math.min(count, list.length) }, (_, i) => list[(start + i) % list.length] as T);
}

/**
 * Per resource: a group of readers (read and list as any, limited attributes), a group of owners
 * (CRUD plus two custom actions as own, with ownership hooks shared by every tenth resource), and
 * a few managers with `*:any`. One role audits every resource with `*:any`. Role groups rotate, so
 * every role appears.
 *
 * @example
 * ```ts
 * writeScaleDefinitions('/tmp/defs', { roles: 200, resources: 500, actions: 10 });
 * ```
 */
export function writeScaleDefinitions(dir: string, size: ScaleSize): ScaleFolder {
  if (size.actions < CRUD.length + 2) throw new Error('at least one custom action is needed');
  mkdirSync(dir, { recursive: true });
  const roles = Array.from({ length: size.roles }, (_, i) => `ROLE_${pad(i)}`);
  const resources = Array.from({ length: size.resources }, (_, i) => `resource_${pad(i)}`);
  const custom = Array.from({ length: size.actions - CRUD.length - 1 }, (_, i) => `action${i}`);
  const share = size.share ?? 0.1;
  const readers = Math.max(1, Math.round(size.roles * share));
  const owners = Math.max(1, Math.round((size.roles * share) / 2));
  const managers = Math.max(1, Math.round((size.roles * share) / 4));
  let files = 0;
  let definitions = 0;

  resources.forEach((resource, r) => {
    const group = r % 10;
    const listKind = group % 2 === 0 ? 'listOwned' : 'limitOwned';
    const ownedActions = [...CRUD, ...slice(custom, r, 2)];
    const list = [
      {
        roles: slice(roles, (r * 7) % roles.length, readers),
        resource,
        descr: `Readers of ${resource}.`,
        grant: { 'read:any': ['*', '!secret', '!owner.phone'], 'list:any': ['title', 'status'] },
      },
      {
        roles: slice(roles, (r * 11 + 3) % roles.length, owners),
        resource,
        descr: `Owners of ${resource}.`,
        possession: 'own',
        grant: Object.fromEntries(ownedActions.map((action, i) => [action, i % 2 === 0 ? ['*'] : ['*', '!secret']])),
        isOwner: `isOwnerInGroup${group}`,
        [listKind]: `${listKind}InGroup${group}`,
      },
      { roles: slice(roles, (r * 13 + 5) % roles.length, managers), resource, descr: `Managers of ${resource}.`, grant: [`*:any`] },
    ];
    if (r === 0) list.push({ roles: [roles[0] as string], resource: '*', descr: 'The auditor sees everything.', grant: ['*:any'] });
    definitions += list.length;
    const body = r % 2 === 0 ? { definitions: list } : list;
    writeFileSync(join(dir, `${resource}.permissions.json`), `${JSON.stringify(body, null, 2)}\n`);
    const resourceFile = {
      resource,
      idType: r % 3 === 0 ? 'string' : 'number',
      attributes: ['id', 'title', 'status', 'body', 'secret', 'owner.name', 'owner.phone'],
    };
    writeFileSync(join(dir, `${resource}.resource.json`), `${JSON.stringify(resourceFile, null, 2)}\n`);
    files += 2;
  });
  return { roles, resources, actions: [...CRUD, 'list', ...custom].sort(), files, definitions };
}
