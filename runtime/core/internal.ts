/**
 * typed-permissions/internal — the building blocks the compiler (typed-permissions-cli) shares with
 * the runtime, so that both validate, build and print exactly alike. Not a public API: it follows
 * the compiler of the same version and may change in any release.
 */
export * from './index.js';
export { planFromJson } from './attribute-plan.js';
export {
  definitionsOfFileValue,
  MAX_DEFINITIONS_FILE_LENGTH,
  parseStrictJson,
  positionAt,
  type StrictJsonResult,
  type TextPosition,
} from './definitions-file.js';
export { isSyntaxProblem, MAX_ATTRIBUTE_PATH_DEPTH } from './grant-syntax.js';
export { groupOwnershipLabel, ownershipLabel } from './grant-tables.js';
export { hookNameProblem, MAX_NAME_LENGTH, nameProblem, quoteForMessage } from './names.js';
export { printableJson } from './printable-text.js';
