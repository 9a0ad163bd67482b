/**
 * The JSON Schemas of the decision service: one module for both what validates requests (Fastify's ajv) and
 * what documents them (the OpenAPI 3.1 document at `/v1/openapi.json`), so the two cannot drift apart. Each body,
 * and each object a body is made of, is a named schema: Fastify holds it by its `$id` (`addSchema`), routes and
 * other schemas refer to it by `$ref`, and the document names it `#/components/schemas/<$id>`. Every object
 * refuses properties it does not list; every string, array and number is bounded (by the limits).
 */
import { MAX_NAME_LENGTH } from '../core/definition/names.js';
import { MAX_STRING_ID_LENGTH } from '../core/decision/resource-id.js';
import { MAX_TENANT_ID_LENGTH } from '../core/decision/tenant-id.js';
import { OWNERSHIP_LIMITS } from '../core/ownership-rules/ownership-rule.js';
import { PROBLEM_MEDIA_TYPE } from './problem-details.js';
import { POLICY_VERSION_HEADER } from './server-context.js';
import type { ResolvedServiceLimits } from './service-limits.js';

/** The widest integer JSON carries exactly (`Number.MAX_SAFE_INTEGER`). */
const SAFE_INTEGER = 9_007_199_254_740_991;

/** A policy version: the SHA-256 of its tables, 64 lower-case hex digits. */
const policyVersionSchema = { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'A policy version: the SHA-256 of its tables, in hex.' } as const;

const nameSchema = (what: string) => ({ type: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH, description: what }) as const;

/** The tenant a question is asked in: its bounds here, its characters checked by the service (control and format characters are refused). */
const tenantSchema = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_TENANT_ID_LENGTH,
  description:
    'The tenant the question is asked in: user.roles are the roles the user holds there, the policy’s and the tenant’s custom roles. ' +
    `A printable string of 1 to ${MAX_TENANT_ID_LENGTH} characters (no control or format characters). Without it, the policy’s roles only.`,
} as const;

const patternsSchema = (what: string) => ({ type: 'array', items: { type: 'string' }, description: what }) as const;

/** The names of the service's schemas: their `$id`s, and their names under `#/components/schemas/` in the document. */
export type ServiceSchemaName =
  | 'User'
  | 'Check'
  | 'CheckRequest'
  | 'OwnershipGroup'
  | 'CheckAnswer'
  | 'CheckResponse'
  | 'SliceRequest'
  | 'SliceResponse'
  | 'PolicyResponse'
  | 'HealthResponse'
  | 'ReadyResponse'
  | 'Metrics'
  | 'OpenApiDocument'
  | 'Problem';

/**
 * A reference to the named schema `name`, as routes and other schemas use it: Fastify resolves it to the schema
 * added with that `$id`, and the document shows it as `#/components/schemas/<name>`.
 *
 * @example
 * ```ts
 * schemaRef('CheckRequest'); // { $ref: 'CheckRequest#' }
 * ```
 */
export function schemaRef<Name extends ServiceSchemaName>(name: Name): { readonly $ref: `${Name}#` } {
  return { $ref: `${name}#` };
}

/** The user of a question, as the application knows them: the id and the role names (what `grantPermit` takes). */
function userSchema(limits: ResolvedServiceLimits) {
  return {
    $id: 'User',
    type: 'object',
    additionalProperties: false,
    required: ['id', 'roles'],
    description: 'The user: their id and role names. Roles no definition names are ignored.',
    properties: {
      id: {
        type: ['string', 'integer'],
        minLength: 1,
        maxLength: MAX_STRING_ID_LENGTH,
        minimum: -SAFE_INTEGER,
        maximum: SAFE_INTEGER,
        description: 'The user id: a non-empty string, or a safe integer.',
      },
      roles: { type: 'array', maxItems: limits.maxRoles, items: nameSchema('A role name.') },
      attributes: {
        type: 'object',
        maxProperties: limits.maxUserAttributes,
        additionalProperties: {
          type: ['string', 'number', 'boolean', 'null', 'array'],
          maxLength: limits.maxAttributeLength,
          maxItems: OWNERSHIP_LIMITS.maxUserListLength,
          items: { type: ['string', 'number'], maxLength: limits.maxAttributeLength },
        },
        description:
          'The user attributes ownership rules read (beside id, which is the user’s own), with the types the policy declares: a string, number ' +
          'or boolean, a list of strings or numbers, null for no value. Needed only with a record.',
      },
    },
  } as const;
}

/** A record's attributes: scalars only, as an ownership rule compares them. */
function recordSchema(limits: ResolvedServiceLimits, description: string) {
  return {
    type: 'object',
    maxProperties: limits.maxRecordAttributes,
    additionalProperties: { type: ['string', 'number', 'boolean', 'null'], maxLength: limits.maxAttributeLength },
    description,
  } as const;
}

/** One question of a `POST /v1/check` batch: may `user` perform `action` on `resource` (the record `resourceId`, owned by the groups `ownedBy`)? */
function checkSchema(limits: ResolvedServiceLimits) {
  return {
    $id: 'Check',
    type: 'object',
    additionalProperties: false,
    required: ['user', 'resource', 'action'],
    description: 'One question: may user perform action on resource (the record resourceId, owned by the groups ownedBy)?',
    properties: {
      user: schemaRef('User'),
      tenant: tenantSchema,
      resource: nameSchema('A resource of the policy (GET /v1/policy lists them).'),
      action: nameSchema('An action of the policy.'),
      resourceId: {
        type: ['string', 'number'],
        minLength: 1,
        maxLength: MAX_STRING_ID_LENGTH,
        description:
          "The record, in the resource's id type: a safe integer (or its decimal text) where ids are numbers, a non-empty string where they are strings.",
      },
      ownedBy: {
        type: 'array',
        maxItems: limits.maxOwnedBy,
        items: { type: 'integer', minimum: 0, maximum: 2_147_483_647 },
        description:
          'The ownership groups (numbers of an earlier answer, or of the user’s slice) that own the record: with it the answer is final. ' +
          'Groups that do not matter for this check are ignored. Needs resourceId.',
      },
      record: recordSchema(
        limits,
        'The record resourceId names, as its attributes (strings, numbers, booleans, null; send those the ownership rules read): the ' +
          'service evaluates every rule group of the answer on it, and the user’s attributes. Needs resourceId.',
      ),
      related: {
        type: 'object',
        maxProperties: OWNERSHIP_LIMITS.maxDeclarations,
        additionalProperties: {
          type: 'array',
          maxItems: limits.maxRelatedRecords,
          items: recordSchema(limits, 'A related record, found by its id attribute.'),
        },
        description:
          'The records rules reach through relations, by resource: each a list of records found by their id attribute. ' +
          `At most ${limits.maxRelatedRecords} over every resource. Needs record.`,
      },
    },
  } as const;
}

/** The body of `POST /v1/check`. */
function checkRequestSchema(limits: ResolvedServiceLimits) {
  return {
    $id: 'CheckRequest',
    type: 'object',
    additionalProperties: false,
    required: ['checks'],
    description: 'A batch of checks, answered in order from one policy version.',
    properties: {
      checks: { type: 'array', maxItems: limits.maxChecks, items: schemaRef('Check'), description: 'The questions, answered in order.' },
      policyVersion: {
        ...policyVersionSchema,
        description:
          'The policy version the ownedBy group numbers come from: when another version is active, the batch is refused with 409 ' +
          '(group numbers belong to one version).',
      },
    },
  } as const;
}

/** One ownership group of an answer: the methods of the application's ownership service that decide it, and what it adds. */
const ownershipGroupSchema = {
  $id: 'OwnershipGroup',
  type: 'object',
  additionalProperties: false,
  required: ['group', 'attributes'],
  description:
    'An ownership group of the user’s roles: a record is owned through it when its ownership rule holds on it (rule: GET /v1/policy lists it; ' +
    'send record and the service evaluates it), else when its isOwner says so, else when its listOwned lists the id, else when ownedAmong ' +
    '(with the limitOwned filter) keeps the id.',
  properties: {
    group: { type: 'integer', minimum: 0, description: 'The group’s number in this policy version (the numbers of the user’s slice).' },
    rule: { type: 'string', description: 'The ownership rule that decides the group, when it names one (then it has no methods).' },
    isOwner: { type: 'string', description: 'The isOwner method, when the group has one.' },
    listOwned: { type: 'string', description: 'The listOwned method, when the group has one.' },
    limitOwned: { type: 'string', description: 'The limitOwned method, when the group has one.' },
    ownedAmong: { type: 'string', description: 'The resource’s ownedAmong executor, when the group has limitOwned and the resource declares one.' },
    attributes: patternsSchema('The attribute patterns this group adds to anyAttributes for records it owns; [] when it adds none.'),
  },
} as const;

/** One answer of `POST /v1/check`: enough to rebuild the Permit the embedded engine would give. */
const checkAnswerSchema = {
  $id: 'CheckAnswer',
  type: 'object',
  additionalProperties: false,
  required: ['granted', 'anyGranted', 'ownGranted', 'needsOwnership', 'reason', 'anyAttributes', 'attributes', 'ownership', 'policyVersion'],
  description: 'The answer to one check: what the Permit of the embedded engine holds, and what is still to be asked when ownership decides.',
  properties: {
    granted: {
      type: 'boolean',
      description: 'The decision, as grantPermit gives it; false while needsOwnership says the ownership of the record is still to be asked.',
    },
    anyGranted: { type: 'boolean', description: 'Granted on any record.' },
    ownGranted: { type: 'boolean', description: 'Granted on the user’s own records (for resourceId: that record is owned); true whenever anyGranted is.' },
    needsOwnership: {
      type: 'boolean',
      description:
        'The answer for resourceId depends on which of the ownership groups own it, and ownedBy did not say: ask them (or send ownedBy) ' +
        'for the final granted and attributes.',
    },
    reason: {
      type: ['string', 'null'],
      enum: ['granted-any', 'granted-own', 'not-owner', 'no-grant', 'unknown-role', 'unknown-tenant', null],
      description:
        'Why, as the embedded permit’s reason says it: granted-any, granted-own (owned, or no record asked and own granted), not-owner ' +
        '(granted as own only, the record not owned), no-grant, unknown-role (none of the user’s roles exists), unknown-tenant (the same, ' +
        'in a tenant without custom roles); null while needsOwnership leaves the decision open.',
    },
    anyAttributes: patternsSchema('The attribute patterns of any record.'),
    attributes: patternsSchema(
      'The attribute patterns of the record: anyAttributes plus those of the groups in ownedBy; without ownedBy, anyAttributes; [] when not granted.',
    ),
    ownership: { type: 'array', items: schemaRef('OwnershipGroup'), description: 'The ownership groups of the user’s roles for this action, by group.' },
    policyVersion: policyVersionSchema,
    callId: {
      type: 'string',
      maxLength: 36,
      description: 'The call id of this decision in the service’s decision log: only when the service logs decisions, and the answer is final.',
    },
  },
} as const;

/** The body of a `POST /v1/check` answer. */
const checkResponseSchema = {
  $id: 'CheckResponse',
  type: 'object',
  description: 'One answer per check, in order, all from one policy version.',
  additionalProperties: false,
  required: ['answers'],
  properties: { answers: { type: 'array', items: schemaRef('CheckAnswer') } },
} as const;

/** The body of `POST /v1/slice`. */
const sliceRequestSchema = {
  $id: 'SliceRequest',
  type: 'object',
  additionalProperties: false,
  required: ['user'],
  description: 'The user whose slice is asked for, in the tenant asked about.',
  properties: { user: schemaRef('User'), tenant: tenantSchema },
} as const;

/** The answer of `POST /v1/slice`: what `permissions.sliceFor(user)` returns, for `createClient(slice)` of typed-permissions/client. */
const sliceResponseSchema = {
  $id: 'SliceResponse',
  type: 'object',
  additionalProperties: false,
  required: ['format', 'version', 'plans', 'grants'],
  description: 'The user’s slice (permissions.sliceFor): read it with createClient of typed-permissions/client.',
  properties: {
    format: { type: 'integer', enum: [1] },
    version: policyVersionSchema,
    plans: { type: 'array', items: { type: 'array' }, description: 'Attribute plans, as [all, children] pairs.' },
    grants: {
      type: 'array',
      items: { type: 'array' },
      description: 'Per resource, [resource, [[action, anyPlan, ownGranted, own, owners], …]]: only granted actions appear.',
    },
    refusal: {
      type: 'string',
      enum: ['unknown-role', 'unknown-tenant'],
      description:
        'Present when none of the roles exists in the policy (nor among the tenant’s custom roles): every action is refused for that reason ' +
        '(unknown-tenant: asked in a tenant without custom roles kept).',
    },
  },
} as const;

/** The answer of `GET /v1/policy`: the active version and the vocabulary requests are checked against. */
const policyResponseSchema = {
  $id: 'PolicyResponse',
  type: 'object',
  description: 'The active policy version, and the vocabulary checks are validated against.',
  additionalProperties: false,
  required: ['policyVersion', 'resources', 'actions', 'ownershipMethods', 'ownershipRules'],
  properties: {
    policyVersion: policyVersionSchema,
    resources: {
      type: 'array',
      description:
        'The resources checks may name, with their id types (null: ids are numbers or strings) and, for a resource that declares its ' +
        'actions, those actions: the only ones a check may name on it.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'idType'],
        properties: {
          name: { type: 'string' },
          idType: { type: ['string', 'null'], enum: ['number', 'string', null] },
          actions: { type: 'array', items: { type: 'string' }, description: 'The actions the resource declares; absent: it accepts any action.' },
        },
      },
    },
    actions: { type: 'array', items: { type: 'string' }, description: 'The actions checks may name.' },
    ownershipMethods: {
      type: 'object',
      additionalProperties: false,
      required: ['isOwner', 'listOwned', 'limitOwned', 'ownedAmong'],
      description: 'The methods of the ownership service the active version names, by kind.',
      properties: {
        isOwner: { type: 'array', items: { type: 'string' } },
        listOwned: { type: 'array', items: { type: 'string' } },
        limitOwned: { type: 'array', items: { type: 'string' } },
        ownedAmong: { type: 'array', items: { type: 'string' } },
      },
    },
    ownershipRules: {
      type: 'object',
      additionalProperties: false,
      required: ['rules', 'relations'],
      description: 'The ownership rules the active version names, and the relations of every resource their paths may go through.',
      properties: {
        rules: {
          type: 'array',
          description: 'The rules, sorted by resource and name.',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['resource', 'name', 'condition', 'userAttributes'],
            properties: {
              resource: { type: 'string' },
              name: { type: 'string' },
              condition: {
                type: 'object',
                additionalProperties: true,
                description:
                  'The condition, as the resource file declares it: { attribute, equals: { user } | { tenant: "id" } }, ' +
                  '{ attribute, in: [literals] | { user } }, { all: [conditions] }, { any: [conditions] }.',
              },
              userAttributes: {
                type: 'object',
                additionalProperties: { type: 'string', enum: ['string', 'number', 'boolean', 'string[]', 'number[]'] },
                description: 'The user attributes the rule may read, with their types.',
              },
              tenantIdType: {
                type: 'string',
                enum: ['number'],
                description: 'Present when the records of the resource hold the tenant id as a number (its file\'s "tenantIdType"); absent: a string.',
              },
            },
          },
        },
        relations: {
          type: 'object',
          description: 'Per resource, its to-one relations by name: the attribute on holds the id of one record of resource.',
          additionalProperties: {
            type: 'object',
            additionalProperties: {
              type: 'object',
              additionalProperties: false,
              required: ['resource', 'on'],
              properties: { resource: { type: 'string' }, on: { type: 'string' } },
            },
          },
        },
      },
    },
  },
} as const;

/** The answer of `GET /healthz`. */
const healthResponseSchema = {
  $id: 'HealthResponse',
  type: 'object',
  description: 'The process answers.',
  additionalProperties: false,
  required: ['status'],
  properties: { status: { type: 'string', enum: ['ok'] } },
} as const;

/** The answer of `GET /readyz` once a policy is loaded. */
const readyResponseSchema = {
  $id: 'ReadyResponse',
  type: 'object',
  description: 'A policy is loaded: the service answers with this version.',
  additionalProperties: false,
  required: ['status', 'policyVersion'],
  properties: { status: { type: 'string', enum: ['ready'] }, policyVersion: policyVersionSchema },
} as const;

/** The answer of `GET /metrics`: text, not JSON. */
const metricsSchema = { $id: 'Metrics', type: 'string', description: 'The metrics, in the Prometheus text exposition format.' } as const;

/** The answer of `GET /v1/openapi.json`: an OpenAPI document, described only as far as a client needs to recognise one. */
const openApiDocumentSchema = {
  $id: 'OpenApiDocument',
  type: 'object',
  description: 'This document: OpenAPI 3.1, made from the schemas the service validates with, stating the limits it runs with.',
  required: ['openapi', 'info', 'paths'],
  additionalProperties: true,
  properties: {
    openapi: { type: 'string', enum: ['3.1.0'] },
    info: { type: 'object', additionalProperties: true, description: 'The title and version of the API.' },
    paths: { type: 'object', additionalProperties: true, description: 'The operations, by path and method.' },
  },
} as const;

/** An error: RFC 9457 problem details, served as `application/problem+json`. */
const problemSchema = {
  $id: 'Problem',
  type: 'object',
  additionalProperties: false,
  required: ['type', 'title', 'status', 'detail'],
  description: 'A refusal, as RFC 9457 problem details.',
  properties: {
    type: { type: 'string', description: 'A URI naming the kind of problem: urn:typed-permissions:problem:<kind>.' },
    title: { type: 'string', description: 'The kind of problem, in words.' },
    status: { type: 'integer', description: 'The HTTP status.' },
    detail: { type: 'string', description: 'What exactly is wrong, naming the field and index.' },
  },
} as const;

/**
 * Every named schema of a service with `limits`, by name: what Fastify validates and serialises with (each added
 * with `addSchema`), and what the document's `components.schemas` holds.
 *
 * @example
 * ```ts
 * for (const schema of Object.values(serviceSchemas(limits))) server.addSchema(schema);
 * ```
 */
export function serviceSchemas(limits: ResolvedServiceLimits) {
  return {
    User: userSchema(limits),
    Check: checkSchema(limits),
    CheckRequest: checkRequestSchema(limits),
    OwnershipGroup: ownershipGroupSchema,
    CheckAnswer: checkAnswerSchema,
    CheckResponse: checkResponseSchema,
    SliceRequest: sliceRequestSchema,
    SliceResponse: sliceResponseSchema,
    PolicyResponse: policyResponseSchema,
    HealthResponse: healthResponseSchema,
    ReadyResponse: readyResponseSchema,
    Metrics: metricsSchema,
    OpenApiDocument: openApiDocumentSchema,
    Problem: problemSchema,
  } as const satisfies { readonly [Name in ServiceSchemaName]: { readonly $id: Name } };
}

/** The headers of answers the document describes, by name, with the schemas of their values. */
const ANSWER_HEADERS = {
  [POLICY_VERSION_HEADER]: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'The policy version the answer was decided on.' },
  'www-authenticate': {
    type: 'string',
    description:
      'The bearer challenge (RFC 6750), with error="invalid_request" for a malformed Authorization header, error="invalid_token" for a token not accepted.',
  },
  'retry-after': { type: 'integer', minimum: 0, description: 'Seconds until this token may ask again.' },
} as const;

/** A header the document describes. */
export type AnswerHeader = keyof typeof ANSWER_HEADERS;

/**
 * An OpenAPI response whose body is the named schema `name` (as `mediaType`, JSON unless told), with `headers`.
 *
 * @example
 * ```ts
 * bodyResponse('The answers, in order.', 'CheckResponse');
 * // { description: 'The answers, in order.', content: { 'application/json': { schema: { $ref: 'CheckResponse#' } } } }
 * ```
 */
export function bodyResponse(
  description: string,
  name: ServiceSchemaName,
  { mediaType = 'application/json', headers = [] }: { readonly mediaType?: string; readonly headers?: readonly AnswerHeader[] } = {},
) {
  return {
    description,
    ...(headers.length === 0 ? {} : { headers: Object.fromEntries(headers.map((header) => [header, ANSWER_HEADERS[header]])) }),
    content: { [mediaType]: { schema: schemaRef(name) } },
  };
}

/** The headers refusals of a status carry: the challenge of a 401, the wait of a 429. */
const PROBLEM_HEADERS: Readonly<Record<number, readonly AnswerHeader[]>> = { 401: ['www-authenticate'], 429: ['retry-after'] };

/**
 * The OpenAPI response objects of problems with `statuses`, for a route's `response` schema.
 *
 * @example
 * ```ts
 * problemResponses({ 400: 'The body is not a batch of checks.' }); // { 400: { description, content: { 'application/problem+json': … } } }
 * ```
 */
export function problemResponses(statuses: Readonly<Record<number, string>>) {
  return Object.fromEntries(
    Object.entries(statuses).map(([status, description]) => [
      status,
      bodyResponse(description, 'Problem', { mediaType: PROBLEM_MEDIA_TYPE, headers: PROBLEM_HEADERS[Number(status)] ?? [] }),
    ]),
  );
}
