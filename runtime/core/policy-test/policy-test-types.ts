/**
 * Policy tests in their normalized form: what `npx typed-permissions compile` makes of the `*.permissions.test.json`
 * files of a definitions folder and embeds in the policy bundle (`policy.json`, field `"tests"`), and what the
 * runner decides against compiled tables. Plain JSON, so a bundle carries it as it is. The maps are JSON objects
 * keyed by name (a user may be called `__proto__`): read them with own-property checks only, never by `obj[name]`.
 */
import type { Explanation } from '../decision/explain.js';

/** A resource id as a test names it: a number (an integer within ±2⁵³−1) or a non-empty string, as the resource declares its ids. */
export type PolicyTestId = number | string;

/** A user of a test file: the id and roles a grant query carries. */
export interface PolicyTestUser {
  readonly id: PolicyTestId;
  readonly roles: readonly string[];
  /** What ownership rules read of the user, besides its id: `{ "companyId": 1, "managedUserIds": [2] }`. */
  readonly attributes?: { readonly [name: string]: PolicyTestUserAttribute };
}

/** A user attribute of a test: a scalar, null, or a list. */
export type PolicyTestUserAttribute = string | number | boolean | null | readonly (string | number)[];

/** What a test expects of the decision. */
export type PolicyTestExpectation = 'granted' | 'denied';

/** One test: a grant query (its user by name), the decision it expects and, with a record, the attributes `pick` keeps. */
export interface PolicyTestCase {
  /** A name of the file's `users`. */
  readonly user: string;
  readonly action: string;
  readonly resource: string;
  /** The record the query is about; without it the test asks about the resource as a whole. */
  readonly resourceId?: PolicyTestId;
  readonly expect: PolicyTestExpectation;
  /** The exact set of top-level keys `pick` keeps of the record `records[resource][String(resourceId)]`. */
  readonly attributes?: readonly string[];
  /** The tenant the question is asked in: one of the file's `tenants`, whose custom roles the user's roles may name. */
  readonly tenant?: string;
  /** Where the test stands in its file (1-based, in UTF-16 code units, as editors count). */
  readonly line: number;
  readonly column: number;
}

/** Per ownership method, per user name: the ids that method owns for that user. */
export type PolicyTestOwnership = { readonly [method: string]: { readonly [user: string]: readonly PolicyTestId[] } };

/** Per resource, per id (as text): a record, the object `pick` is given. */
export type PolicyTestRecords = { readonly [resource: string]: { readonly [id: string]: { readonly [attribute: string]: unknown } } };

/** One test file, normalized: every map present (empty when the file has none). */
export interface PolicyTestFile {
  /** The file's name, relative to the definitions folder. */
  readonly file: string;
  readonly users: { readonly [name: string]: PolicyTestUser };
  readonly ownership: PolicyTestOwnership;
  readonly records: PolicyTestRecords;
  /** Per tenant, its custom roles (`{ "definitions": [ … ] }`, checked against the policy); absent when no test names a tenant. */
  readonly tenants?: { readonly [tenant: string]: unknown };
  readonly tests: readonly PolicyTestCase[];
}

/** The tests of a policy: what a bundle's `"tests"` holds. */
export interface PolicyTests {
  readonly format: 1;
  readonly files: readonly PolicyTestFile[];
}

/** Stable codes of the problems of policy tests. */
export type PolicyTestProblemCode =
  | 'invalid-test-file'
  | 'no-tests'
  | 'too-large'
  | 'invalid-name'
  | 'invalid-id'
  | 'unknown-user'
  | 'unknown-method'
  | 'unknown-resource'
  | 'unknown-action'
  | 'unknown-record'
  | 'unknown-tenant'
  | 'invalid-tenant-roles';

/** One problem of a test file: where in it (the JSON path inside the file's value), what, and how to fix it. */
export interface PolicyTestProblem {
  /** The file's name; for a problem of the tests as a whole, `tests`. */
  readonly file: string;
  /** Path inside the file's value, such as `['tests', 3, 'user']`; empty for the file as a whole. */
  readonly path: readonly (string | number)[];
  readonly code: PolicyTestProblemCode;
  readonly message: string;
  readonly fix: string;
}

/** The result of one test. */
export interface PolicyTestOutcome {
  readonly file: string;
  readonly test: PolicyTestCase;
  readonly passed: boolean;
  /** The decision: `permit.granted` of the test's grant query. */
  readonly granted: boolean;
  /** The keys `pick` kept of the record, sorted, when the test names attributes. */
  readonly attributes?: readonly string[];
  /** Why the decision was what it was, for a test that failed. */
  readonly explanation?: Explanation;
  /** What went wrong deciding, when deciding threw (the test fails). */
  readonly error?: string;
}

/** One grant of the tables: a role may do an action on a resource, as `any` or on records it owns. */
export interface GrantCellName {
  readonly role: string;
  readonly resource: string;
  readonly action: string;
  readonly possession: 'any' | 'own';
}

/** The result of running a policy's tests. */
export interface PolicyTestRun {
  readonly passed: number;
  readonly failed: number;
  /** Every test's outcome, in file order, then test order. */
  readonly outcomes: readonly PolicyTestOutcome[];
  /** How many grants (cells × possession) the tables hold. */
  readonly grants: number;
  /** The grants no test exercised, sorted by role, resource, action, possession. */
  readonly unexercised: readonly GrantCellName[];
}
