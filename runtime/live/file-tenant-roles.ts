/**
 * `fileTenantRoles(folder)`: tenants' custom roles in a folder (`typed-permissions tenant publish --store`, or
 * the admin API). A read is one file read. The watch follows the store's index — rewritten last by every
 * publish — with the project's one follower of a file, and compares each index read with the one before: the
 * tenants whose active sequence changed (or that came or went) are named, one call each, and no other.
 */
import { resolve } from 'node:path';
import { PermissionsUsageError } from '../core/common/errors.js';
import { durationOption } from './duration-option.js';
import { followFile } from './file-follower.js';
import { readFileTenantRoles, readTenantIndex, type TenantIndex } from './file-tenant-roles-store.js';
import type { TenantRolesSource } from './tenant-roles-source.js';

/** Options of {@link fileTenantRoles}. */
export interface FileTenantRolesOptions {
  /** How often the index's identity is compared besides the file system's events, in ms. Default 1,000. */
  readonly pollIntervalMs?: number | undefined;
}

/**
 * A source of tenants' custom roles in the folder `folder`.
 *
 * @example
 * ```ts
 * const tenantRoles = fileTenantRoles('tenant-roles');
 * await tenantRoles.read('acme'); // { tenant: 'acme', sequence: 1, document: { definitions: [ … ] } }
 * ```
 */
export function fileTenantRoles(folder: string, options: FileTenantRolesOptions = {}): TenantRolesSource {
  if (typeof folder !== 'string' || folder === '') throw new PermissionsUsageError('fileTenantRoles(folder): folder must be the path of a folder.');
  const root = resolve(folder);
  const pollIntervalMs = durationOption('fileTenantRoles(): pollIntervalMs', options.pollIntervalMs, 1_000, 10);
  return {
    description: `tenant roles in folder ${root}`,
    read: (tenant) => readFileTenantRoles(root, tenant),
    watch(changed, failed) {
      let previous: TenantIndex | undefined;
      const stop = followFile(`${root}/index.json`, {
        pollIntervalMs,
        read: () => readTenantIndex(root),
        onRead: (index) => {
          const before = previous;
          previous = index;
          // The first read may follow the engine's first reads of tenants: every one is read again, as after a lost watch.
          if (before === undefined) return changed(undefined);
          for (const [hash, entry] of index) if (before.get(hash)?.sequence !== entry.sequence) changed(entry.tenant);
          for (const [hash, entry] of before) if (!index.has(hash)) changed(entry.tenant);
        },
        onError: failed,
      });
      return () => {
        stop();
        return Promise.resolve();
      };
    },
  };
}
