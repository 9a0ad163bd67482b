/**
 * The example page's script (bundled with the client by `build-page.ts`; runs in the browser under a
 * strict Content-Security-Policy). It asks the server for the caller's slice, fetches the documents the
 * caller may list or read from protected endpoints, shows each with exactly the fields the server sent,
 * and enables the read/update/delete/review buttons where the client — with the server's rules — says the
 * server would grant them. A click calls the app's guarded endpoint for that document; what the server
 * answers, a refusal included, is shown in the message line. When the policy changes (a live policy), the
 * page shows itself again with the new slice.
 */
import type { Schema } from '../../../generated/types.js';
import { createClient, type PermissionSlice, type PermissionsClient } from '../../../runtime/client/index.js';
import { DOCUMENT_ACTIONS, failureMessage, requestFor, successMessage, type DocumentAction } from './document-actions.js';
import { callServer } from './server-answer.js';
import { statusSentence } from './status-sentence.js';

/** One document as the page endpoints send it (see documents-page.controller.ts). */
interface PageDocument {
  readonly document: Readonly<Record<string, unknown>>;
  readonly ownedBy: readonly number[];
}

/** The order columns are shown in; a column appears only when some document shows that field. */
const FIELD_ORDER = ['id', 'title', 'date', 'status', 'personal', 'confidential', 'creatorId'];

/** The policy version of the slice the page shows: a response decided on another one means the policy changed. */
let shownVersion: string | undefined;
/**
 * The ETag of the slice the page shows (the policy version and a hash of what it grants): it changes with the custom
 * roles of the caller's company too, which a policy version does not follow.
 */
let shownTag: string | undefined;
/** Set when a response says the policy changed: the page shows itself again, with a fresh slice. */
let policyChanged = false;
/** One button's call at a time: a second click while the first is under way would act on a table about to change. */
let acting = false;
/** How many button calls have finished (shown as `data-actions-done`, so a test can wait for the next one). */
let actionsDone = 0;

/** The element with this id; the page's HTML has every one the script uses. */
function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`The page has no #${id}.`);
  return element as T;
}

async function getJson<T>(path: string, userId: string): Promise<T> {
  return (await getJsonWithHeaders<T>(path, userId)).body;
}

async function getJsonWithHeaders<T>(path: string, userId: string): Promise<{ body: T; headers: Headers }> {
  const response = await fetch(path, { headers: { 'x-user-id': userId } });
  const version = response.headers.get('x-permissions-version');
  if (version !== null && shownVersion !== undefined && version !== shownVersion) policyChanged = true;
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return { body: (await response.json()) as T, headers: response.headers };
}

/** What the tenant line says: the company whose custom roles the caller's permissions include, or that there is none. */
function tenantSentence(tenant: string | null): string {
  return tenant === null ? 'No company: the compiled policy only.' : `Company ${tenant}: its custom roles apply.`;
}

/**
 * The documents the caller may list or read, each once. A document the caller may both list and read comes in both
 * answers, under its list attributes and under its read attributes, and either may hide its id, so the two copies
 * cannot be matched by id. The client tells from the groups that own a document (the same in both answers) whether
 * the caller may read it and whether its list copy shows the id: that copy is shown when it does (the buttons act on
 * the id) or when there is no read copy; otherwise the read copy is.
 */
async function documentsFor(client: PermissionsClient<Schema>, userId: string): Promise<PageDocument[]> {
  const listed = client.can('list', 'document') ? await getJson<PageDocument[]>('/documents-page/listed', userId) : [];
  const readable = client.can('read', 'document') ? await getJson<PageDocument[]>('/documents-page/readable', userId) : [];
  const listShowsId = (row: PageDocument) => 'id' in client.pick('list', 'document', { id: 0 }, { owned: row.ownedBy });
  const listCopyShown = (row: PageDocument) => listShowsId(row) || !client.can('read', 'document', { owned: row.ownedBy });
  const readCopyShown = (row: PageDocument) => !client.can('list', 'document', { owned: row.ownedBy }) || !listShowsId(row);
  return [...listed.filter(listCopyShown), ...readable.filter(readCopyShown)];
}

/** A JSON value as the page shows it (the endpoints send strings and numbers). */
const shown = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

function cell(tag: 'td' | 'th', text: string, className?: string): HTMLElement {
  const element = document.createElement(tag);
  element.textContent = text;
  if (className !== undefined) element.className = className;
  return element;
}

function actionButtons(row: PageDocument, client: PermissionsClient<Schema>): HTMLElement {
  const buttons = document.createElement('div');
  buttons.className = 'buttons';
  const id = row.document['id'];
  for (const action of DOCUMENT_ACTIONS) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = action;
    button.dataset['action'] = action;
    // Without its id a document cannot be named to the server: no button acts on it, whatever the grants.
    button.disabled = id === undefined || !client.can(action, 'document', { owned: row.ownedBy });
    if (id !== undefined) button.setAttribute('aria-label', `${action} document ${shown(id)}`);
    buttons.append(button);
  }
  return buttons;
}

function render(rows: readonly PageDocument[], client: PermissionsClient<Schema>): void {
  const table = byId<HTMLTableElement>('documents');
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
      actions.append(actionButtons(row, client));
      tr.append(actions);
      return tr;
    }),
  );
  table.hidden = false;
}

/** The user picker's name for `userId`: `user 2 (EMPLOYEE_MANAGER)`. */
function userName(userId: string): string {
  const option = [...byId<HTMLSelectElement>('user').options].find((candidate) => candidate.value === userId);
  return option?.textContent?.trim() ?? `user ${userId}`;
}

async function show(userId: string): Promise<void> {
  const status = byId('status');
  status.textContent = 'Loading…';
  document.body.dataset['ready'] = 'false';
  try {
    shownVersion = undefined;
    shownTag = undefined;
    byId('tenant').textContent = '';
    const slice = await getJsonWithHeaders<PermissionSlice>('/me/permissions', userId);
    shownTag = slice.headers.get('etag') ?? undefined;
    // The server asks every question in the tenant of the caller's company; the slice says which one.
    byId('tenant').textContent = tenantSentence(slice.headers.get('x-permissions-tenant'));
    const client = createClient<Schema>(slice.body);
    shownVersion = client.version;
    policyChanged = false;
    const rows = await documentsFor(client, userId);
    // The policy changed while the page loaded: show it again, once, with the new slice.
    if (policyChanged && document.body.dataset['refreshed'] !== client.version) {
      document.body.dataset['refreshed'] = client.version;
      return show(userId);
    }
    render(rows, client);
    const read = client.canAny('read', 'document') ? 'any' : client.canOwn('read', 'document') ? 'own' : 'none';
    status.textContent = statusSentence({ who: userName(userId), count: rows.length, list: client.can('list', 'document'), read, version: client.version });
  } catch (error) {
    status.textContent = `Could not load the documents: ${error instanceof Error ? error.message : String(error)}`;
  }
  document.body.dataset['ready'] = 'true';
  document.body.dataset['user'] = userId;
}

/** Shows `text` in the message line, as the outcome of the last click; it stays until the next click or user. */
function showMessage(text: string, outcome: 'done' | 'refused'): void {
  const message = byId('message');
  message.textContent = text;
  message.dataset['outcome'] = outcome;
  message.hidden = false;
  message.scrollIntoView({ block: 'nearest' });
}

/** Shows a document as the server answered it: exactly the attributes it sent, in the table's order. */
function showRecord(id: string, record: Readonly<Record<string, unknown>>): void {
  const panel = byId('record');
  panel.dataset['recordId'] = id;
  byId('record-title').textContent = `Document ${id}`;
  const keys = [...FIELD_ORDER.filter((key) => Object.hasOwn(record, key)), ...Object.keys(record).filter((key) => !FIELD_ORDER.includes(key))];
  const list = panel.querySelector('dl') as HTMLDListElement;
  list.replaceChildren(
    ...keys.flatMap((key) => {
      const term = document.createElement('dt');
      term.textContent = key;
      const value = document.createElement('dd');
      value.textContent = shown(record[key]);
      value.dataset['field'] = key;
      return [term, value];
    }),
  );
  panel.hidden = false;
}

function hideRecord(): void {
  byId('record').hidden = true;
}

/** Opens the title editor for document `id`, filled with the title the table shows (empty when it is hidden). */
function openEditor(id: string, title: string): void {
  const form = byId<HTMLFormElement>('edit');
  form.dataset['recordId'] = id;
  byId('edit-heading').textContent = `Rename document ${id}`;
  const input = byId<HTMLInputElement>('edit-title');
  input.value = title;
  form.hidden = false;
  input.focus();
}

function closeEditor(): void {
  byId('edit').hidden = true;
}

/** What a record answer is: an object, else nothing to show. */
const asRecord = (body: unknown): Readonly<Record<string, unknown>> =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

/**
 * Calls the guarded endpoint of `action` on document `id` as `userId` and shows what came of it. After a
 * change, or an answer decided on another policy, the table is shown again from the server.
 */
async function act(action: DocumentAction, id: string, userId: string, title?: string): Promise<void> {
  if (acting) return;
  acting = true;
  byId('documents').setAttribute('aria-busy', 'true');
  try {
    const request = requestFor(action, id, title);
    const answer = await callServer(request.method, request.path, userId, request.body);
    const sameUser = document.body.dataset['user'] === userId;
    if (answer.kind !== 'ok') {
      showMessage(failureMessage(action, id, answer), 'refused');
      // The page offers only what its slice grants: a refusal means the slice is out of date (the policy, the company's
      // custom roles, or who owns the document changed). Show it again.
      if (answer.kind === 'refused' && sameUser) await show(userId);
      return;
    }
    const record = asRecord(answer.body);
    showMessage(successMessage(action, id, record), 'done');
    if (action === 'update') closeEditor();
    if (action === 'delete') {
      if (byId('record').dataset['recordId'] === id) hideRecord();
    } else showRecord(id, record);
    if (sameUser && (action !== 'read' || (answer.version !== undefined && answer.version !== shownVersion))) await show(userId);
  } finally {
    acting = false;
    byId('documents').removeAttribute('aria-busy');
    document.body.dataset['actionsDone'] = String(++actionsDone);
  }
}

const isAction = (value: string | undefined): value is DocumentAction => DOCUMENT_ACTIONS.some((action) => action === value);

/** A click on a row's enabled button: update opens the title editor, the others call the server at once. */
function onTableClick(event: MouseEvent): void {
  const button = event.target instanceof Element ? event.target.closest('button[data-action]') : null;
  if (!(button instanceof HTMLButtonElement) || button.disabled) return;
  const row = button.closest('tr');
  const id = row?.dataset['documentId'];
  const userId = document.body.dataset['user'];
  const action = button.dataset['action'];
  if (id === undefined || userId === undefined || !isAction(action)) return;
  if (action === 'update') openEditor(id, row?.querySelector('td[data-field="title"]:not(.hidden-field)')?.textContent ?? '');
  else void act(action, id, userId);
}

/** How often an open page asks whether its slice is current: a 304 (ETag of version and grants) while it is. */
const POLICY_CHECK_MS = 5000;

/**
 * Shows the page again when its slice changed since it was shown (the policy, or the custom roles of the caller's
 * company): every few seconds, and when the window gets focus.
 */
async function checkPolicy(): Promise<void> {
  const userId = document.body.dataset['user'];
  if (userId === undefined || document.body.dataset['ready'] !== 'true' || shownTag === undefined || acting) return;
  try {
    // The browser revalidates with If-None-Match and hands back the cached slice on a 304.
    const response = await fetch('/me/permissions', { headers: { 'x-user-id': userId } });
    const tag = response.headers.get('etag');
    if (response.ok && tag !== null && tag !== shownTag && document.body.dataset['user'] === userId) await show(userId);
  } catch {
    // Offline for a moment: the next check asks again.
  }
}

const select = byId<HTMLSelectElement>('user');
select.addEventListener('change', () => {
  // Another user: what the last one did, read or was refused is theirs, not this one's.
  byId('message').hidden = true;
  hideRecord();
  closeEditor();
  void show(select.value);
});
byId('documents').addEventListener('click', onTableClick);
byId<HTMLFormElement>('edit').addEventListener('submit', (event) => {
  // The form never navigates (the CSP allows no form action): the script sends the change.
  event.preventDefault();
  const id = byId('edit').dataset['recordId'];
  const userId = document.body.dataset['user'];
  if (id !== undefined && userId !== undefined) void act('update', id, userId, byId<HTMLInputElement>('edit-title').value);
});
byId('edit-cancel').addEventListener('click', closeEditor);
byId('record-close').addEventListener('click', hideRecord);
setInterval(() => void checkPolicy(), POLICY_CHECK_MS);
window.addEventListener('focus', () => void checkPolicy());
void show(select.value);
