/**
 * Who asked for a decision: an open label an integration chooses (`'express'`, `'fastify'`, …), carried by the
 * decision log's events and the decision spans. The decision log's queue keeps a small number per decision, not
 * the label: labels are interned into one table per process, bounded, so that a label made per request (a bug)
 * is refused instead of growing the table and every queued decision's code.
 */
import { PermissionsUsageError } from '../common/errors.js';

/**
 * The most distinct labels a process may use; a new label past it is refused.
 *
 * @example
 * ```ts
 * await decideRequest(permissions, query, 'fastify'); // one of at most MAX_DECISION_LABELS labels per process
 * ```
 */
export const MAX_DECISION_LABELS = 64;

/**
 * What a label looks like: a letter, then letters, digits, `.`, `_` or `-`, at most 32 characters.
 *
 * @example
 * ```ts
 * DECISION_LABEL_PATTERN.test('fastify'); // true
 * DECISION_LABEL_PATTERN.test('user 42'); // false
 * ```
 */
export const DECISION_LABEL_PATTERN = /^[A-Za-z][A-Za-z0-9._-]{0,31}$/;

/** The labels of this library's own callers come first, so their numbers are the same in every process. */
const labels: string[] = ['direct', 'nest', 'graphql', 'express', 'service'];
const numbers = new Map<string, number>(labels.map((label, index) => [label, index]));

/** The number of a label, interned on first use, or the error that refuses it. */
function intern(label: string): number | PermissionsUsageError {
  const known = numbers.get(label);
  if (known !== undefined) return known;
  if (typeof label !== 'string' || !DECISION_LABEL_PATTERN.test(label))
    return new PermissionsUsageError(
      `The decision label ${JSON.stringify(label)} is not one: a label (who asked for the decision, such as "fastify") is a letter followed by ` +
        'letters, digits, ".", "_" or "-", at most 32 characters.',
    );
  if (labels.length >= MAX_DECISION_LABELS)
    return new PermissionsUsageError(
      `The decision label ${JSON.stringify(label)} would be label number ${MAX_DECISION_LABELS + 1} of this process, more than the limit of ` +
        `${MAX_DECISION_LABELS}: a label names an integration, not a request; use one fixed label per integration.`,
    );
  numbers.set(label, labels.length);
  labels.push(label);
  return labels.length - 1;
}

/**
 * The number of a label, interned on first use. Throws a PermissionsUsageError for a label that is not one
 * (`DECISION_LABEL_PATTERN`), and for a new label once {@link MAX_DECISION_LABELS} are in use.
 *
 * @example
 * ```ts
 * decisionLabelNumber('express'); // 3
 * decisionLabelNumber('fastify'); // 5 (the first new label of the process)
 * ```
 */
export function decisionLabelNumber(label: string): number {
  const number = intern(label);
  if (typeof number !== 'number') throw number;
  return number;
}

/**
 * Interns a label (see {@link decisionLabelNumber}), returning the error that refuses it instead of throwing it.
 *
 * @example
 * ```ts
 * const refused = decisionLabelRefusal(via);
 * if (refused !== undefined) return Promise.reject(refused);
 * ```
 */
export function decisionLabelRefusal(label: string): PermissionsUsageError | undefined {
  const number = intern(label);
  return typeof number === 'number' ? undefined : number;
}

/**
 * The label of a number {@link decisionLabelNumber} gave.
 *
 * @example
 * ```ts
 * decisionLabelOf(3); // 'express'
 * ```
 */
export function decisionLabelOf(number: number): string {
  return labels[number] as string;
}
