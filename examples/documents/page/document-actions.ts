/**
 * The page's buttons: which guarded endpoint each one calls for a document, and the sentence the page shows
 * for what came of it — done, refused by the server (with its status and reason), or the server unreachable.
 */
import type { ServerAnswer } from './server-answer.js';

/** The actions the page offers on a document, in the order of its buttons. */
export const DOCUMENT_ACTIONS = ['read', 'update', 'delete', 'review'] as const;

/** One of {@link DOCUMENT_ACTIONS}. */
export type DocumentAction = (typeof DOCUMENT_ACTIONS)[number];

/** One HTTP call of a button. */
export interface DocumentRequest {
  readonly method: 'GET' | 'PATCH' | 'DELETE' | 'POST';
  readonly path: string;
  readonly body?: { readonly title: string };
}

/** The guarded controller every button goes through (documents-protected-simple.controller.ts). */
const BASE = '/documents-protected-simple';

/** How the messages name each action (an update of the page changes the title only). */
const VERBS: Readonly<Record<DocumentAction, string>> = { read: 'read', update: 'rename', delete: 'delete', review: 'review' };

/**
 * The call a button makes for document `id`; `title` is the new title of an update.
 *
 * @example
 * ```ts
 * requestFor('update', 50, 'Budget 2025'); // { method: 'PATCH', path: '/documents-protected-simple/50', body: { title: 'Budget 2025' } }
 * requestFor('review', 40); // { method: 'POST', path: '/documents-protected-simple/40/review' }
 * ```
 */
export function requestFor(action: DocumentAction, id: string, title = ''): DocumentRequest {
  const path = `${BASE}/${encodeURIComponent(id)}`;
  switch (action) {
    case 'read':
      return { method: 'GET', path };
    case 'update':
      return { method: 'PATCH', path, body: { title } };
    case 'delete':
      return { method: 'DELETE', path };
    case 'review':
      return { method: 'POST', path: `${path}/review` };
  }
}

/**
 * The sentence for an action the server did not carry out.
 *
 * @example
 * ```ts
 * failureMessage('update', '50', { kind: 'refused', status: 403, reason: 'update on document is not granted', version: undefined });
 * // 'Could not rename document 50: the server answered 403 (update on document is not granted).'
 * ```
 */
export function failureMessage(action: DocumentAction, id: string, answer: Exclude<ServerAnswer, { kind: 'ok' }>): string {
  const what = `Could not ${VERBS[action]} document ${id}`;
  return answer.kind === 'unreachable' ? `${what}: the server could not be reached.` : `${what}: the server answered ${answer.status} (${answer.reason}).`;
}

/**
 * The sentence for an action the server carried out, from the document it answered (only the attributes the
 * caller may see: an attribute it left out is not named).
 *
 * @example
 * ```ts
 * successMessage('review', '40', { id: 40, status: 'approved' }); // 'Document 40 reviewed: its status is now approved.'
 * ```
 */
export function successMessage(action: DocumentAction, id: string, record: Readonly<Record<string, unknown>>): string {
  switch (action) {
    case 'read': {
      const count = Object.keys(record).length;
      return `Document ${id} read: the server sent ${count} attribute${count === 1 ? '' : 's'}.`;
    }
    case 'update':
      return typeof record['title'] === 'string' ? `Document ${id} renamed to “${record['title']}”.` : `Document ${id} renamed.`;
    case 'delete':
      return `Document ${id} deleted.`;
    case 'review':
      return typeof record['status'] === 'string' ? `Document ${id} reviewed: its status is now ${record['status']}.` : `Document ${id} reviewed.`;
  }
}
