/**
 * The page's status line: one sentence saying who is signed in, how many documents are shown, what the
 * caller may do with documents as a whole, and which policy decided it.
 */

/** What the status line says. */
export interface StatusFacts {
  /** The caller as the user picker names them: `user 2 (EMPLOYEE_MANAGER)`. */
  readonly who: string;
  readonly count: number;
  /** Whether the caller may list documents. */
  readonly list: boolean;
  /** Whether the caller may read any document, only the ones they own, or none. */
  readonly read: 'any' | 'own' | 'none';
  /** The policy version the slice was decided on (a hash; the sentence shows its first 8 characters, like a short commit id). */
  readonly version: string;
}

/** How many characters of the policy version the sentence shows: enough to tell two versions apart at a glance. */
export const SHORT_VERSION_LENGTH = 8;

const READS = { any: 'read any document', own: 'read your own', none: undefined } as const;

/**
 * The status sentence.
 *
 * @example
 * ```ts
 * statusSentence({ who: 'user 4 (COMPANY_ADMIN)', count: 9, list: false, read: 'own', version: '3f2c9a1b…' });
 * // 'Signed in as user 4 (COMPANY_ADMIN): 9 documents shown; you may not list documents but may read your own, as decided by policy 3f2c9a1b.'
 * ```
 */
export function statusSentence({ who, count, list, read, version }: StatusFacts): string {
  const reading = READS[read];
  const rights = list
    ? reading === undefined
      ? 'you may list documents but not read them'
      : `you may list documents and ${reading}`
    : reading === undefined
      ? 'you may neither list nor read documents'
      : `you may not list documents but may ${reading}`;
  const shown = `${count} document${count === 1 ? '' : 's'} shown`;
  return `Signed in as ${who}: ${shown}; ${rights}, as decided by policy ${version.slice(0, SHORT_VERSION_LENGTH)}.`;
}
