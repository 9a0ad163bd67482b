/**
 * The stated limits of policy tests: a test file, and every test a policy carries, stay bounded, so that the
 * compiler, `typed-permissions test` and a follower checking a bundle's tests take bounded memory and time.
 * Each is checked where a test file is read (a problem with its file, line and column) and again where a bundle
 * is checked (a rejection), at the value itself — not after the work it would cost.
 */

/** Tests in one file. */
export const MAX_POLICY_TESTS_PER_FILE = 10_000;
/** Tests in one policy (every test file of a definitions folder, every test of a bundle). */
export const MAX_POLICY_TESTS = 50_000;
/** Test files in one policy. */
export const MAX_POLICY_TEST_FILES = 100;
/** Users in one file. */
export const MAX_POLICY_TEST_USERS = 1_000;
/** Roles of one user. */
export const MAX_POLICY_TEST_ROLES = 100;
/** Attributes of one user (what ownership rules read). */
export const MAX_POLICY_TEST_USER_ATTRIBUTES = 64;
/** Values of one list attribute of a user: the rules' own limit. */
export const MAX_POLICY_TEST_USER_LIST = 10_000;
/** Ids one ownership method owns for one user. */
export const MAX_POLICY_TEST_OWNED_IDS = 10_000;
/** Records in one file, over every resource. */
export const MAX_POLICY_TEST_RECORDS = 10_000;
/** Attributes one test names. */
export const MAX_POLICY_TEST_ATTRIBUTES = 1_000;
/** Tenants one file defines custom roles for. */
export const MAX_POLICY_TEST_TENANTS = 100;
/**
 * Custom-role definitions over every tenant of every test file of one policy: each tenant a test names is built like a
 * followed source's, so a policy's tests cost at most this many definitions to build (one tenant may hold 1,000).
 */
export const MAX_POLICY_TEST_TENANT_DEFINITIONS = 10_000;
