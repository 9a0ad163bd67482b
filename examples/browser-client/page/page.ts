/**
 * The page's script. It makes a client from the caller's slice, lists the documents the server sends, and enables
 * each row's buttons where the server would grant them. Whatever the server answers is shown, refusals included:
 * a link to a document (#2) is opened whoever it belongs to, and only the server knows whether it may be.
 */
import { createClient, type PermissionSlice, type PermissionsClient } from 'typed-permissions/client';
import type { Schema } from '../generated/index.js';

/** A row of GET /documents: the attributes the server's list permit kept, and the caller's groups that own it. */
interface Row {
  readonly document: Readonly<Record<string, unknown>>;
  readonly ownedBy: readonly number[];
}

/** What the server answered; `status` 0 when it could not be reached. A refusal's body is `{ statusCode, error, message }`. */
interface Answer {
  readonly status: number;
  readonly body: unknown;
}

const COLUMNS = ['id', 'title', 'ownerId'];

// Who is signed in: ?user=<id> in the address stands in for your session. Without it, a visitor.
const userId = new URLSearchParams(location.search).get('user');

const byId = (id: string): HTMLElement => document.getElementById(id) as HTMLElement;

async function call(method: 'GET' | 'DELETE', path: string): Promise<Answer> {
  let status: number;
  let text: string;
  try {
    const response = await fetch(path, { method, headers: userId === null ? {} : { 'x-user-id': userId } });
    status = response.status;
    text = await response.text();
  } catch {
    return { status: 0, body: undefined };
  }
  try {
    return { status, body: JSON.parse(text) as unknown };
  } catch {
    return { status, body: undefined };
  }
}

/** Why the server did not do it: `the server answered 403 (read on document is not granted)`. */
function refusal({ status, body }: Answer): string {
  if (status === 0) return 'the server could not be reached';
  const message = (body as { message?: unknown } | null | undefined)?.message;
  // Quoted inside the page's own sentence, without its full stop.
  return `the server answered ${status} (${typeof message === 'string' ? message.replace(/\.$/, '') : 'no reason given'})`;
}

function say(text: string): void {
  const message = byId('message');
  message.textContent = text;
  message.hidden = false;
}

function rowOf(client: PermissionsClient<Schema>, row: Row): HTMLTableRowElement {
  // The server picked this row with its list permit; the client picks with the same action and agrees with it.
  const shown = client.pick('list', 'document', row.document, { owned: row.ownedBy });
  const id = shown['id'];
  const tr = document.createElement('tr');
  for (const column of COLUMNS) {
    const cell = tr.insertCell();
    cell.textContent = column in shown ? String(shown[column]) : '—';
  }
  const actions = tr.insertCell();
  for (const action of ['read', 'delete'] as const) {
    const button = document.createElement('button');
    button.textContent = action;
    // Offered where the server would grant it; on a click the server decides again.
    button.disabled = id === undefined || !client.can(action, 'document', { owned: row.ownedBy });
    button.addEventListener('click', () => (action === 'read' ? (location.hash = String(id)) : void remove(String(id))));
    actions.append(button);
  }
  return tr;
}

async function showDocuments(): Promise<void> {
  const status = byId('status');
  const slice = await call('GET', '/me/permissions');
  if (slice.status !== 200) {
    status.textContent = `Could not sign in: ${refusal(slice)}.`;
    return;
  }
  let client: PermissionsClient<Schema>;
  try {
    client = createClient<Schema>(slice.body as PermissionSlice);
  } catch (error) {
    status.textContent = `Could not read your permissions: ${error instanceof Error ? error.message : String(error)}`;
    return;
  }
  const who = userId === null ? 'Not signed in' : `Signed in as user ${userId}`;
  if (!client.can('list', 'document')) {
    status.textContent = `${who}: you may not list documents.`;
    return;
  }
  const listed = await call('GET', '/documents');
  if (listed.status !== 200) {
    status.textContent = `Could not list the documents: ${refusal(listed)}.`;
    return;
  }
  const rows = listed.body as Row[];
  byId('documents').replaceChildren(...rows.map((row) => rowOf(client, row)));
  byId('table').hidden = false;
  status.textContent = `${who}: ${rows.length} documents.`;
}

/** Opens the document the address names (#2): a read button's, a link someone sent, or one typed by hand. */
async function openFromAddress(): Promise<void> {
  byId('record').hidden = true;
  byId('message').hidden = true;
  const hash = location.hash.slice(1);
  if (hash === '') return;
  let id: string;
  try {
    id = decodeURIComponent(hash);
  } catch {
    id = hash;
  }
  const answer = await call('GET', `/documents/${encodeURIComponent(id)}`);
  if (answer.status !== 200) return say(`Could not open document ${id}: ${refusal(answer)}.`);
  byId('record-title').textContent = `Document ${id}`;
  byId('record-fields').replaceChildren(
    ...Object.entries(answer.body as Record<string, unknown>).flatMap(([name, value]) => {
      const term = document.createElement('dt');
      term.textContent = name;
      const description = document.createElement('dd');
      description.textContent = String(value);
      return [term, description];
    }),
  );
  byId('record').hidden = false;
}

async function remove(id: string): Promise<void> {
  const answer = await call('DELETE', `/documents/${encodeURIComponent(id)}`);
  if (answer.status !== 204) return say(`Could not delete document ${id}: ${refusal(answer)}.`);
  say(`Document ${id} deleted.`);
  if (location.hash === `#${id}`) byId('record').hidden = true;
  await showDocuments();
}

const picker = byId('user') as HTMLSelectElement;
picker.value = userId ?? '';
picker.addEventListener('change', () => {
  location.search = picker.value === '' ? '' : `?user=${picker.value}`;
});
window.addEventListener('hashchange', () => void openFromAddress());
void showDocuments().then(openFromAddress);
