/**
 * What a name may be: roles, resources, actions, attribute path segments and hook names all pass
 * this one check, in `build()` and in the compiler alike. A name ends up in generated TypeScript,
 * in PERMISSIONS.md, in a terminal and in log lines, so it must be printable text of bounded length.
 */
import { codePointLabel, loneSurrogateIn } from '../common/lone-surrogate.js';

/** The longest name, in UTF-16 code units. Long enough for any real name; short enough that the generated files and messages stay bounded. */
export const MAX_NAME_LENGTH = 128;

/** Control characters (C0, DEL, C1), format characters (bidi overrides, zero-width joiners, BOM), and line or paragraph separators. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * Why `name` is not a valid name, as the end of a sentence that starts with the name's role
 * ("a role name …"), or `undefined` when it is valid.
 *
 * @example
 * ```ts
 * nameProblem('EMPLOYEE');        // undefined
 * nameProblem('EMPLOYEE\nADMIN'); // 'contains the unprintable character U+000A'
 * ```
 */
export function nameProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name.length > MAX_NAME_LENGTH) return `is ${name.length} characters long; the limit is ${MAX_NAME_LENGTH}`;
  const lone = loneSurrogateIn(name);
  if (lone !== undefined) return `contains a lone surrogate (${lone}), which is not text`;
  const unprintable = UNPRINTABLE.exec(name);
  if (unprintable !== null) return `contains the unprintable character ${codePointLabel(unprintable[0])}`;
  if (name.trim() !== name) return 'starts or ends with whitespace';
  return undefined;
}

/**
 * Methods a hook must not be named after: members every object has (a hook would resolve to
 * `Object.prototype`), `then` (the ownership service would become a thenable, which promise
 * machinery and Nest's async providers would call), `prototype`, `new` (in the generated interface of
 * the ownership service, `new (args)` declares a constructor, which no service object implements), and
 * the lifecycle methods NestJS calls on every provider (the hook would run at start or shutdown, with
 * no arguments).
 */
export const RESERVED_HOOK_NAMES: ReadonlySet<string> = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  'then',
  'prototype',
  'new',
  'onModuleInit',
  'onApplicationBootstrap',
  'onModuleDestroy',
  'beforeApplicationShutdown',
  'onApplicationShutdown',
]);

/**
 * Why `name` cannot name a hook method of the ownership service, or `undefined` when it can.
 *
 * @example
 * ```ts
 * hookNameProblem('isCreator'); // undefined
 * hookNameProblem('then');      // 'is reserved: …'
 * ```
 */
export function hookNameProblem(name: string): string | undefined {
  if (name.length > MAX_NAME_LENGTH) return `is ${name.length} characters long; the limit is ${MAX_NAME_LENGTH}`;
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return 'must be a JavaScript identifier, for example "isCreator"';
  if (RESERVED_HOOK_NAMES.has(name)) {
    if (name === 'then') return 'is reserved: a method named "then" makes the ownership service a thenable, which promises and NestJS would call';
    if (name === 'new') return 'is reserved: in the ownership service\'s generated interface "new" would declare a constructor, not a method';
    return `is reserved: every object, or NestJS, already gives "${name}" a meaning`;
  }
  return undefined;
}
