/**
 * What the example page's endpoints must answer, read from the definitions and example-data.ts by hand (never
 * from the library under test): ownership groups named by their rules, the hand-read ownership rules, the
 * slices' plans, the listed rows, the page's Content-Security-Policy and the refusals.
 */
import { grantTables } from '../../generated/index.js';
import { ALL_DOCUMENT_IDS, documentOnly, documentWithId, documentWithout, type DocumentField } from './example-expectations.js';

/**
 * The ownership group (an index of the generated tables' `owners`) decided by the ownership rule `ruleName`: the
 * opaque numbers the slice and `ownedBy` carry. Read from the tables so the test names groups by their
 * definitions (EMPLOYEE's creator, …) rather than by numbers the compiler happens to assign.
 */
export function groupOf(ruleName: string): number {
  const rules = grantTables.ownershipRules?.rules ?? [];
  const group = grantTables.owners.findIndex((owner) => owner.rule !== undefined && rules[owner.rule]?.name === ruleName);
  if (group === -1) throw new Error(`the generated tables have no ownership group decided by the rule ${ruleName}`);
  return group;
}

export const EMPLOYEE_GROUP = groupOf('creator');
export const MANAGER_GROUP = groupOf('creatorOrManaged');
export const COMPANY_GROUP = groupOf('sameCompany');

/** Who created each document (example-data.ts), for the hand-written ownership rules below. */
export const creatorOf = (id: number): number => documentWithId(id).creatorId;

/** The hand-read ownership rules of the example (managers: 2 → 1, 4; 7 → 5, 6; companies: {1, 2, 3, 7}, {4, 5, 6}). */
export const ownedByEmployee = (userId: number) => (id: number) => creatorOf(id) === userId;
export const ownedByManager = (managed: readonly number[]) => (id: number) => managed.includes(creatorOf(id));
export const ownedByCompany = (members: readonly number[]) => (id: number) => members.includes(creatorOf(id));

/** One row of the page endpoints' answer. */
export interface PageRow {
  readonly document: object;
  readonly ownedBy: readonly number[];
}

/** The page's policy, written out: own-origin scripts, styles and fetches; no inline code, no eval, no plug-ins, no framing. */
export const EXPECTED_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

// Collection checks: no record is asked about, so a refusal is never 'not-owner'; an unknown role shows as 'no-grant'.
export const FORBIDDEN_LIST = { statusCode: 403, error: 'Forbidden', message: 'list on document is not granted', reason: 'no-grant' };
export const FORBIDDEN_READ = { statusCode: 403, error: 'Forbidden', message: 'read on document is not granted', reason: 'no-grant' };

// Plans are attribute tries as JSON: [keepOthers, [[key, child | null], …]], keys sorted.
export const ALL_BUT_CONFIDENTIAL = [1, [['confidential', null]]];

export const TITLE_AND_DATE = [
  0,
  [
    ['date', null],
    ['title', null],
  ],
];

export const EVERY_ATTRIBUTE = [1, []];

/** Every document in list order: owned ones (by the given groups) with `ownAttributes`, the others with `anyFields` only. */
export const listedRows = (
  owners: ReadonlyArray<readonly [group: number, owns: (id: number) => boolean]>,
  listOwns: (id: number) => boolean,
  hiddenWhenOwned: readonly DocumentField[],
  anyFields: readonly DocumentField[],
): PageRow[] =>
  ALL_DOCUMENT_IDS.map((id) => ({
    document: listOwns(id) ? documentWithout(id, ...hiddenWhenOwned) : documentOnly(id, ...anyFields),
    ownedBy: owners.filter(([, owns]) => owns(id)).map(([group]) => group),
  }));
