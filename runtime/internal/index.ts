/**
 * typed-permissions/internal — exactly what the compiler (typed-permissions-cli) shares with the runtime,
 * so that both validate, build and print alike. Not a public API: it follows the compiler of the same
 * version and may change in any release.
 */
export { buildGrantTables, type LocatedDefinition, type ValidDefinition } from '../core/table-building/table-builder.js';
export { formatCount } from '../core/table-building/definition-parts.js';
export { definitionSchema, validateDefinition } from '../core/definition/definition-schema.js';
export { MAX_DEFINITIONS_FILE_LENGTH, parseStrictJson } from '../core/definition/definitions-file.js';
export { scanJson, type JsonPath, type JsonPlaceListener } from '../core/definition/json-syntax-scanner.js';
export { lineStarts } from '../core/definition/text-position.js';
export { definitionsFileSchema, definitionsOfFileValue } from '../core/definition/definitions-file-schema.js';
export { parseAttributePattern } from '../core/definition/grant-syntax.js';
export { undeclaredAttributePaths, type DeclaredResourceAttributes, type UndeclaredAttributeProblem } from '../core/definition/declared-attributes.js';
export { quoteForMessage } from '../core/common/printable-text.js';
export { resourceMetadataSchema, validateResourceMetadata } from '../core/definition/resource-metadata-schema.js';
export { loadZod, zodMaxRefused } from '../core/definition/zod-loader.js';
export { ownershipDeclarationProblems, type OwnershipResourceDeclarations } from '../core/ownership-rules/ownership-rule-checks.js';
export type { OwnershipCondition, RelationDeclaration, TenantIdType, UserAttributeType } from '../core/ownership-rules/ownership-rule.js';
export { explainGrant, explainGrantIn, formatExplanation } from '../core/decision/explain.js';
export { checkTenantRoles } from '../core/table-building/tenant-roles.js';
export { checkTenantId } from '../core/decision/tenant-id.js';
export { planFromJson, planToJson, planToPatterns, unionPlans, type AttributePlanJson } from '../core/projection/attribute-plan.js';
export { printableText } from '../core/common/printable-text.js';
export { groupOwnershipLabel, type GrantCell, type GrantTables } from '../core/tables/grant-tables.js';
export { bundleLengthProblem, MAX_POLICY_BUNDLE_LENGTH, policyBundleOf, policyBundleProblem, type PolicyBundle } from '../live/policy-bundle.js';
export { policyVersionOf } from '../core/tables/policy-version.js';
export { packGrantTables, resourceCells } from '../core/tables/packed-tables.js';
export { MAX_POLICY_TEST_FILES, MAX_POLICY_TEST_USER_LIST, MAX_POLICY_TESTS, MAX_POLICY_TESTS_PER_FILE } from '../core/policy-test/policy-test-limits.js';
export { describeFailure, describePolicyTest, policyTestLocation } from '../core/policy-test/policy-test-report.js';
export { policyTestReferenceProblems } from '../core/policy-test/policy-test-references.js';
export { isPolicyTestId, POLICY_TEST_EXPECTATIONS, POLICY_TEST_ID_RULE, policyTestsShapeProblems } from '../core/policy-test/policy-test-shape.js';
export { MAX_STRING_ID_LENGTH } from '../core/decision/resource-id.js';
export type {
  GrantCellName,
  PolicyTestCase,
  PolicyTestFile,
  PolicyTestId,
  PolicyTestOutcome,
  PolicyTestProblem,
  PolicyTestRun,
  PolicyTests,
  PolicyTestUser,
} from '../core/policy-test/policy-test-types.js';
export { checkPolicyTests, runPolicyTests } from '../core/policy-test/run-policy-tests.js';
export { capabilityProblems } from '../live/policy-candidate.js';
export type { FollowerCapabilities } from '../live/policy-source.js';
export { connectionStringForMessages, loadPg, serverOfConnectionString, type PgClient, type Queryable } from '../live/postgres-client.js';
export { FOLLOWER_FORGET_MS, FOLLOWER_REFRESH_MS } from '../live/follower-timing.js';
export { forgetGoneFollowers, listFollowers, type RegisteredFollower } from '../live/postgres-follower-registry.js';
export {
  listPolicies,
  publishPolicy,
  readActiveSequence,
  readCurrentPolicy,
  readStoredVersion,
  rollbackPolicy,
  storeNames,
  type StoredVersion,
} from '../live/postgres-policy-store.js';
export { PermissionsUsageError } from '../core/common/errors.js';
export { describeRule } from '../core/ownership-rules/describe-rule.js';
export { formatProblemLocation, PermissionDefinitionError } from '../core/common/errors.js';
export { parseBundleText } from '../live/bundle-text.js';
export { fileKindOf, regularFileText } from '../live/regular-file-text.js';
export { watchFile } from '../live/file-follower.js';
export { packageVersion } from './package-version.js';
export { fileTenantRolesAdmin, postgresTenantRolesAdmin, type TenantRolesAdmin, type TenantRolesBase } from '../live/tenant-roles-admin.js';
export { MAX_TENANT_ROLES_BYTES } from '../live/tenant-roles-document.js';
export { tenantRolesFit, tenantRolesState, type TenantRolesFit } from '../live/tenant-roles-fit.js';
export { compileActiveTenantRoles } from '../live/tenant-roles-compile.js';
export { ownershipRulesStandIn, ownershipStandIn } from '../live/ownership-stand-in.js';
export { permissionsFromTables, PrecompiledPermissions } from '../permissions/precompiled-permissions.js';
export { fileTenantRoles } from '../live/file-tenant-roles.js';
export type { DecisionEvent } from '../core/decision-log/decision-event.js';
