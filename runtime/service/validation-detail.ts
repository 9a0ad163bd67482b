/**
 * The detail of a request the JSON Schema refused, in words that name the field and index
 * (`checks[3].user.roles must have at most 64 items`), from the first error the validator found.
 */
import { quoteForMessage } from '../core/common/printable-text.js';

/** What the service reads of one validator error (ajv's shape, as Fastify hands it over). */
export interface ValidationIssue {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message?: string | undefined;
}

/**
 * A JSON pointer (`/checks/3/user/roles`) as a path people read (`checks[3].user.roles`); `''` is the body.
 *
 * @example
 * ```ts
 * readablePath('/checks/3/user/roles'); // 'checks[3].user.roles'
 * ```
 */
export function readablePath(pointer: string): string {
  if (pointer === '') return 'the body';
  let path = '';
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (/^(?:0|[1-9][0-9]*)$/.test(segment)) path += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment)) path += path === '' ? segment : `.${segment}`;
    else path += `[${quoteForMessage(segment)}]`;
  }
  return path;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function typeWords(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return types.map((one) => TYPE_WORDS[String(one)] ?? String(one)).join(' or ');
}

/**
 * The detail of the first validation error.
 *
 * @example
 * ```ts
 * validationDetail({ instancePath: '/checks/0', keyword: 'additionalProperties', params: { additionalProperty: 'resourceID' } });
 * // 'checks[0] has the property "resourceID", which is not one of its properties.'
 * ```
 */
export function validationDetail(issue: ValidationIssue): string {
  const where = readablePath(issue.instancePath);
  const { params } = issue;
  switch (issue.keyword) {
    case 'required':
      return `${where} must have the property ${quoteForMessage(String(params['missingProperty']))}.`;
    case 'additionalProperties':
      return `${where} has the property ${quoteForMessage(String(params['additionalProperty']))}, which is not one of its properties.`;
    case 'type':
      return `${where} must be ${typeWords(params['type'])}.`;
    case 'maxItems':
      return `${where} must have at most ${String(params['limit'])} items.`;
    case 'maxProperties':
      return `${where} must have at most ${String(params['limit'])} properties.`;
    case 'minItems':
      return `${where} must have at least ${String(params['limit'])} items.`;
    case 'maxLength':
      return `${where} must be at most ${String(params['limit'])} characters long.`;
    case 'minLength':
      return `${where} must not be empty.`;
    case 'maximum':
      return `${where} must be at most ${String(params['limit'])}.`;
    case 'minimum':
      return `${where} must be at least ${String(params['limit'])}.`;
    case 'pattern':
      return where.endsWith('policyVersion') ? `${where} must be a policy version (64 hexadecimal digits).` : `${where} is not in the expected form.`;
    default:
      return `${where} ${issue.message ?? 'is not valid'}.`;
  }
}
