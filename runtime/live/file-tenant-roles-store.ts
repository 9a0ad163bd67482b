/**
 * Tenants' custom roles in a folder: the embedded store, with the versioned semantics of the PostgreSQL one. A
 * tenant id never becomes a path: each tenant has a folder named by the SHA-256 of its id, and every file in it
 * names the tenant, checked on read (a folder copied under another tenant's name is refused, not served). Every
 * write is a temporary file renamed over its target, so a reader sees the old file or the new one, never part
 * of one. Publishes are serialised by a lock file, across processes.
 *
 * ```text
 * <folder>/index.json                       every tenant's active version: rewritten last by every publish
 * <folder>/tenants/<sha256>/current.json    { tenant, sequence, document }: what a read reads
 * <folder>/tenants/<sha256>/log.json        { tenant, versions: [ … ] }: every version's sequence, time, author, note, roles
 * <folder>/tenants/<sha256>/<sequence>.json { tenant, sequence, document }: every version, kept for rollbacks
 * <folder>/.lock                            held while a publish writes (the holder's pid)
 * ```
 */
import { createHash, randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import { mkdir, open, rename, rm, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PermissionsUsageError } from '../core/common/errors.js';
import { checkTenantId } from '../core/decision/tenant-id.js';
import { regularFileText } from './regular-file-text.js';
import type { TenantRolesVersion } from './tenant-roles-source.js';
import {
  checkSequence,
  MAX_TENANT_ROLES_BYTES,
  MAX_TENANT_ROLES_SHOWN_VERSIONS,
  pageOptions,
  publishDetails,
  roleNamesOf,
  storedTenantRoles,
  tenantRolesText,
  type TenantRolesCheck,
  type TenantRolesDetail,
  type TenantRolesPage,
  type TenantRolesPageOptions,
  type TenantRolesPublishOptions,
  type TenantRolesSummary,
} from './tenant-roles-document.js';

/** The most bytes the index may hold: about 200,000 tenants with a few roles each. */
export const MAX_TENANT_INDEX_BYTES = 64 * 1024 * 1024;

/** The most bytes a tenant's log may hold: tens of thousands of publishes. */
const MAX_TENANT_LOG_BYTES = 16 * 1024 * 1024;

/** A version file: the document and the few bytes around it. */
const MAX_VERSION_FILE_BYTES = MAX_TENANT_ROLES_BYTES + 4096;

/** How long a publish waits for another one's lock before refusing, in ms. */
const LOCK_WAIT_MS = 5_000;

/** The index: every tenant's active version, by the hash of its id. */
export type TenantIndex = ReadonlyMap<string, TenantRolesSummary>;

type LogEntry = Omit<TenantRolesSummary, 'tenant'>;

/**
 * The folder name of a tenant: the SHA-256 (hex) of its id.
 *
 * @example
 * ```ts
 * tenantFolderName('acme'); // '4f2b…' (64 hex digits)
 * ```
 */
export function tenantFolderName(tenant: string): string {
  return createHash('sha256').update(tenant, 'utf8').digest('hex');
}

const indexPath = (folder: string): string => join(folder, 'index.json');
const tenantPath = (folder: string, tenant: string, file: string): string => join(folder, 'tenants', tenantFolderName(tenant), file);

/** The JSON value of a file of the store, or undefined when it does not exist; a PermissionsUsageError when it is not JSON or too large. */
async function readStoreFile(path: string, maxBytes: number): Promise<unknown> {
  let text: string;
  try {
    text = await regularFileText(path, { subject: `The tenant roles file ${path}`, maxBytes, instead: 'the store folder must hold only what the store wrote' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new PermissionsUsageError(
      `The tenant roles file ${path} is not JSON (${(error as Error).message}); it was not written by this store, or was changed by hand.`,
    );
  }
}

function damaged(path: string, what: string): PermissionsUsageError {
  return new PermissionsUsageError(`The tenant roles file ${path} ${what}; it was not written by this store, or was changed by hand.`);
}

function isSummary(value: unknown): value is TenantRolesSummary {
  const entry = value as Partial<TenantRolesSummary> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.tenant === 'string' &&
    Number.isSafeInteger(entry.sequence) &&
    typeof entry.publishedAt === 'string' &&
    typeof entry.publishedBy === 'string' &&
    typeof entry.note === 'string' &&
    Array.isArray(entry.roles) &&
    entry.roles.every((role) => typeof role === 'string')
  );
}

/**
 * The index of the store in `folder` (empty when nothing was published), each entry checked against the hash it is filed under.
 *
 * @example
 * ```ts
 * const index = await readTenantIndex('tenant-roles'); // Map { '4f2b…' => { tenant: 'acme', sequence: 2, … } }
 * ```
 */
export async function readTenantIndex(folder: string): Promise<TenantIndex> {
  const path = indexPath(resolve(folder));
  const value = await readStoreFile(path, MAX_TENANT_INDEX_BYTES);
  const index = new Map<string, TenantRolesSummary>();
  if (value === undefined) return index;
  const isObject = typeof value === 'object' && value !== null;
  const format: unknown = isObject ? Reflect.get(value, 'format') : undefined;
  const tenants: unknown = isObject ? Reflect.get(value, 'tenants') : undefined;
  if (format !== 1 || typeof tenants !== 'object' || tenants === null || Array.isArray(tenants)) throw damaged(path, 'is not an index { format: 1, tenants }');
  for (const [hash, entry] of Object.entries(tenants)) {
    if (!isSummary(entry) || tenantFolderName(entry.tenant) !== hash)
      throw damaged(path, `has an entry ${JSON.stringify(hash)} that is not a tenant's summary`);
    index.set(hash, entry);
  }
  return index;
}

/** Reads a tenant's `{ tenant, sequence, document }` file, checking that it names the tenant (and the sequence, when given). */
async function readVersionFile(path: string, tenant: string, sequence?: number): Promise<TenantRolesVersion | undefined> {
  const value = (await readStoreFile(path, MAX_VERSION_FILE_BYTES)) as Partial<TenantRolesVersion> | undefined | null;
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || !Number.isSafeInteger(value.sequence) || !('document' in value))
    throw damaged(path, 'is not a version { tenant, sequence, document }');
  if (value.tenant !== tenant) throw damaged(path, `holds tenant ${JSON.stringify(value.tenant)}, not ${JSON.stringify(tenant)}`);
  if (sequence !== undefined && value.sequence !== sequence) throw damaged(path, `holds version ${String(value.sequence)}, not ${sequence}`);
  return { tenant, sequence: value.sequence as number, document: value.document };
}

/**
 * The active version of `tenant`'s custom roles in `folder`: one file read. Undefined when it has none.
 *
 * @example
 * ```ts
 * await readFileTenantRoles('tenant-roles', 'acme'); // { tenant: 'acme', sequence: 2, document: { definitions: [ … ] } }
 * ```
 */
export async function readFileTenantRoles(folder: string, tenant: string): Promise<TenantRolesVersion | undefined> {
  checkTenantId(tenant, 'read: tenant');
  return readVersionFile(tenantPath(resolve(folder), tenant, 'current.json'), tenant);
}

async function readLog(folder: string, tenant: string): Promise<LogEntry[]> {
  const path = tenantPath(folder, tenant, 'log.json');
  const value = (await readStoreFile(path, MAX_TENANT_LOG_BYTES)) as { tenant?: unknown; versions?: unknown } | undefined | null;
  if (value === undefined) return [];
  if (typeof value !== 'object' || value === null || !Array.isArray(value.versions)) throw damaged(path, 'is not a log { tenant, versions }');
  if (value.tenant !== tenant) throw damaged(path, `holds tenant ${JSON.stringify(value.tenant)}, not ${JSON.stringify(tenant)}`);
  const versions = value.versions as unknown[];
  if (!versions.every((entry) => isSummary({ ...(entry as object), tenant }))) throw damaged(path, 'has an entry that is not a version');
  return versions as LogEntry[];
}

/** Writes `text` to `path` through a temporary file renamed over it (flushed first), so that readers never see part of it. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', 0o644);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Runs `work` holding the store's lock file; waits at most {@link LOCK_WAIT_MS} for another holder. */
async function withStoreLock<T>(folder: string, work: () => Promise<T>): Promise<T> {
  await mkdir(folder, { recursive: true });
  const lock = join(folder, '.lock');
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lock, 'wx', 0o644);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() >= deadline)
        throw new PermissionsUsageError(
          `Another publish has held ${lock} for more than ${LOCK_WAIT_MS / 1000} s; nothing was changed. ` +
            'If no publish is running (its process died), remove that file and publish again.',
        );
      await new Promise((done) => setTimeout(done, 20));
    }
  }
  try {
    return await work();
  } finally {
    await unlink(lock).catch(() => undefined);
  }
}

function defaultAuthor(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Writes a tenant's next version, its log, its pointer, then the index (last: it is what watchers follow). Holding the lock. */
async function writeVersion(
  folder: string,
  tenant: string,
  text: string,
  roles: readonly string[],
  details: { note: string; publishedBy: string | undefined },
): Promise<number> {
  const log = await readLog(folder, tenant);
  const index = new Map(await readTenantIndex(folder));
  const newest = log.at(-1)?.sequence ?? 0;
  // The index names the tenant's newest version too: a log behind it (removed, or put back from an older copy) would
  // number the next version again from there, and write over versions kept under those numbers. (A log ahead of it
  // is a publish stopped before it wrote the index, which is written last: numbering goes on from the log.)
  const indexed = index.get(tenantFolderName(tenant))?.sequence ?? 0;
  if (newest < indexed)
    throw damaged(
      tenantPath(folder, tenant, 'log.json'),
      `${newest === 0 ? 'is missing or empty' : `ends at version #${newest}`} while the index says #${indexed}; nothing was changed`,
    );
  const sequence = newest + 1;
  const entry: LogEntry = { sequence, publishedAt: new Date().toISOString(), publishedBy: details.publishedBy ?? defaultAuthor(), note: details.note, roles };
  await mkdir(join(folder, 'tenants', tenantFolderName(tenant)), { recursive: true });
  const versionText = `{"tenant":${JSON.stringify(tenant)},"sequence":${sequence},"document":${text}}`;
  await writeAtomically(tenantPath(folder, tenant, `${sequence}.json`), versionText);
  await writeAtomically(tenantPath(folder, tenant, 'log.json'), JSON.stringify({ tenant, versions: [...log, entry] }));
  await writeAtomically(tenantPath(folder, tenant, 'current.json'), versionText);
  index.set(tenantFolderName(tenant), { tenant, ...entry });
  await writeAtomically(indexPath(folder), JSON.stringify({ format: 1, tenants: Object.fromEntries(index) }));
  return sequence;
}

/**
 * Publishes `document` as `tenant`'s next version in the store in `folder` (created when missing), after
 * `check` accepted it. Returns the new sequence.
 *
 * @example
 * ```ts
 * await publishFileTenantRoles('tenant-roles', 'acme', document, check, { note: 'auditors' }); // 1
 * ```
 */
export async function publishFileTenantRoles(
  folder: string,
  tenant: string,
  document: unknown,
  check: TenantRolesCheck,
  options?: TenantRolesPublishOptions,
): Promise<number> {
  checkTenantId(tenant, 'publish: tenant');
  const details = publishDetails(options);
  const { text, value } = storedTenantRoles(tenant, document);
  check(tenant, value);
  const root = resolve(folder);
  return withStoreLock(root, () => writeVersion(root, tenant, text, roleNamesOf(value), details));
}

/**
 * Publishes the document of `tenant`'s version `sequence` again, as its newest (checked again against the base
 * policy). Returns the new sequence.
 *
 * @example
 * ```ts
 * await rollbackFileTenantRoles('tenant-roles', 'acme', 1, check); // 3
 * ```
 */
export async function rollbackFileTenantRoles(
  folder: string,
  tenant: string,
  sequence: number,
  check: TenantRolesCheck,
  options?: TenantRolesPublishOptions,
): Promise<number> {
  checkTenantId(tenant, 'rollback: tenant');
  checkSequence(sequence);
  const details = publishDetails({ note: `rollback to ${sequence}`, ...options });
  const root = resolve(folder);
  return withStoreLock(root, async () => {
    const version = await readVersionFile(tenantPath(root, tenant, `${sequence}.json`), tenant, sequence);
    if (version === undefined)
      throw new PermissionsUsageError(`Tenant ${JSON.stringify(tenant)} has no version ${sequence} of custom roles; see \`typed-permissions tenant show\`.`);
    check(tenant, version.document);
    return writeVersion(root, tenant, tenantRolesText(tenant, version.document), roleNamesOf(version.document), details);
  });
}

/**
 * One page of the tenants of the store in `folder`, ordered by tenant id.
 *
 * @example
 * ```ts
 * const { tenants, next } = await listFileTenantRoles('tenant-roles', { limit: 1000 });
 * ```
 */
export async function listFileTenantRoles(folder: string, options?: TenantRolesPageOptions): Promise<TenantRolesPage> {
  const { after, limit } = pageOptions(options);
  const all = [...(await readTenantIndex(folder)).values()]
    .filter((entry) => after === undefined || entry.tenant > after)
    .sort((a, b) => (a.tenant < b.tenant ? -1 : 1));
  const tenants = all.slice(0, limit);
  const last = tenants.at(-1);
  return all.length > limit && last !== undefined ? { tenants, next: last.tenant } : { tenants };
}

/**
 * `tenant`'s versions, newest first (at most 100), and its active document.
 *
 * @example
 * ```ts
 * const { versions, active } = await showFileTenantRoles('tenant-roles', 'acme');
 * ```
 */
export async function showFileTenantRoles(folder: string, tenant: string): Promise<TenantRolesDetail> {
  checkTenantId(tenant, 'show: tenant');
  const root = resolve(folder);
  const log = await readLog(root, tenant);
  const active = await readFileTenantRoles(root, tenant);
  const versions = log
    .slice(-MAX_TENANT_ROLES_SHOWN_VERSIONS)
    .reverse()
    .map((entry) => ({ ...entry, active: entry.sequence === active?.sequence }));
  return active === undefined ? { tenant, versions } : { tenant, versions, active: { sequence: active.sequence, document: active.document } };
}
