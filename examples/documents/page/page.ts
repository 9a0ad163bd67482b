/**
 * The example page's script (bundled with the client by `build-page.ts`; runs in the browser under a
 * strict Content-Security-Policy). It asks the server for the caller's slice, fetches the documents the
 * caller may list or read from protected endpoints, shows each with exactly the fields the server sent,
 * and enables read/update/delete buttons where the client — with the server's rules — says the server
 * would grant them. When the policy changes (a live policy), the page shows itself again with the new slice.
 */
import type { Schema } from '../../../generated/types.js';
import { createClient, type PermissionSlice, type PermissionsClient } from '../../../runtime/client/index.js';

/** One document as the page endpoints send it (see documents-page.controller.ts). */
interface PageDocument {
  readonly document: Readonly<Record<string, unknown>>;
  readonly ownedBy: readonly number[];
}

/** The order columns are shown in; a column appears only when some document shows that field. */
const FIELD_ORDER = ['id', 'title', 'date', 'status', 'personal', 'confidential', 'creatorId'];
const ACTIONS = ['read', 'update', 'delete'] as const;

/** The policy version of the slice the page shows: a response decided on another one means the policy changed. */
let shownVersion: string | undefined;
/** Set when a response says the policy changed: the page shows itself again, with a fresh slice. */
let policyChanged = false;

async function getJson<T>(path: string, userId: string): Promise<T> {
  const response = await fetch(path, { headers: { 'x-user-id': userId } });
  const version = response.headers.get('x-permissions-version');
  if (version !== null && shownVersion !== undefined && version !== shownVersion) policyChanged = true;
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return (await response.json()) as T;
}

/**
 * The documents the caller may list, then those they may read that the list did not show (by id). A document
 * the list shows without its id cannot be recognised among the readable ones; no role of the example both
 * hides the id in lists and may read such a document, so no document appears twice here.
 */
async function documentsFor(client: PermissionsClient<Schema>, userId: string): Promise<PageDocument[]> {
  const rows: PageDocument[] = [];
  if (client.can('list', 'document')) rows.push(...(await getJson<PageDocument[]>('/documents-page/listed', userId)));
  if (client.can('read', 'document')) {
    const listedIds = new Set<unknown>(rows.map((row) => row.document['id']).filter((id) => id !== undefined));
    for (const row of await getJson<PageDocument[]>('/documents-page/readable', userId)) if (!listedIds.has(row.document['id'])) rows.push(row);
  }
  return rows;
}

/** A JSON value as the page shows it (the endpoints send strings and numbers). */
const shown = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

function cell(tag: 'td' | 'th', text: string, className?: string): HTMLElement {
  const element = document.createElement(tag);
  element.textContent = text;
  if (className !== undefined) element.className = className;
  return element;
}

function render(rows: readonly PageDocument[], client: PermissionsClient<Schema>): void {
  const table = document.getElementById('documents') as HTMLTableElement;
  const head = table.tHead as HTMLTableSectionElement;
  const body = table.tBodies[0] as HTMLTableSectionElement;
  const fields = FIELD_ORDER.filter((field) => rows.some((row) => Object.hasOwn(row.document, field)));
  const headRow = document.createElement('tr');
  for (const field of fields) headRow.append(cell('th', field));
  headRow.append(cell('th', 'actions'));
  head.replaceChildren(headRow);
  body.replaceChildren(
    ...rows.map((row) => {
      const tr = document.createElement('tr');
      const id = row.document['id'];
      if (id !== undefined) tr.dataset['documentId'] = shown(id);
      for (const field of fields) {
        // A field this document does not show is an empty cell: its value never reached the page.
        const td = Object.hasOwn(row.document, field) ? cell('td', shown(row.document[field])) : cell('td', '—', 'hidden-field');
        td.dataset['field'] = field;
        tr.append(td);
      }
      const actions = cell('td', '', 'actions');
      for (const action of ACTIONS) {
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = action;
        button.dataset['action'] = action;
        button.disabled = !client.can(action, 'document', { owned: row.ownedBy });
        actions.append(button);
      }
      tr.append(actions);
      return tr;
    }),
  );
  table.hidden = false;
}

async function show(userId: string): Promise<void> {
  const status = document.getElementById('status') as HTMLElement;
  status.textContent = 'Loading…';
  document.body.dataset['ready'] = 'false';
  try {
    shownVersion = undefined;
    const client = createClient<Schema>(await getJson<PermissionSlice>('/me/permissions', userId));
    shownVersion = client.version;
    policyChanged = false;
    const rows = await documentsFor(client, userId);
    // The policy changed while the page loaded: show it again, once, with the new slice.
    if (policyChanged && document.body.dataset['refreshed'] !== client.version) {
      document.body.dataset['refreshed'] = client.version;
      return show(userId);
    }
    render(rows, client);
    const read = client.canAny('read', 'document') ? 'any' : client.canOwn('read', 'document') ? 'own' : 'no';
    status.textContent = `${rows.length} document${rows.length === 1 ? '' : 's'}; list: ${client.can('list', 'document') ? 'yes' : 'no'}, read: ${read}.`;
  } catch (error) {
    status.textContent = `Could not load the documents: ${error instanceof Error ? error.message : String(error)}`;
  }
  document.body.dataset['ready'] = 'true';
  document.body.dataset['user'] = userId;
}

/** How often an open page asks whether its slice is current: a 304 (ETag of version and roles) while it is. */
const POLICY_CHECK_MS = 5000;

/** Shows the page again when the policy changed since it was shown: every few seconds, and when the window gets focus. */
async function checkPolicy(): Promise<void> {
  const userId = document.body.dataset['user'];
  if (userId === undefined || document.body.dataset['ready'] !== 'true' || shownVersion === undefined) return;
  try {
    // The browser revalidates with If-None-Match and hands back the cached slice on a 304.
    const response = await fetch('/me/permissions', { headers: { 'x-user-id': userId } });
    const { version } = (await response.json()) as { version?: unknown };
    if (response.ok && typeof version === 'string' && version !== shownVersion && document.body.dataset['user'] === userId) await show(userId);
  } catch {
    // Offline for a moment: the next check asks again.
  }
}

const select = document.getElementById('user') as HTMLSelectElement;
select.addEventListener('change', () => void show(select.value));
setInterval(() => void checkPolicy(), POLICY_CHECK_MS);
window.addEventListener('focus', () => void checkPolicy());
void show(select.value);
