/**
 * The methods of a controller or resolver class, found the way Nest's router and GraphQL explorer find them
 * (`MetadataScanner`), so that the integration checks exactly the handlers Nest will call.
 */
import { MetadataScanner } from '@nestjs/core';
import type { NestClass, RouteHandler } from './nest-targets.js';

/** One method of a class: the name it is reached by and the function that keys its metadata. */
export interface ClassMethod {
  readonly methodName: string;
  readonly handler: RouteHandler;
}

/**
 * The methods of `owner`, base classes and mixins included, in the order Nest scans them (the class's own
 * first). A name overridden in a subclass is the subclass's method only; getters and setters are left out
 * without being invoked. A metatype with no prototype object (a factory provider's arrow function) has none.
 *
 * @example
 * ```ts
 * class Base { @Get() read() {} }
 * class Shelves extends Base { @Get('all') list() {} }
 * classMethodsOf(Shelves); // [{ methodName: 'list', handler: Shelves.prototype.list }, { methodName: 'read', handler: Base.prototype.read }]
 * ```
 */
export function classMethodsOf(owner: NestClass): ClassMethod[] {
  const prototype: unknown = owner.prototype;
  // `Object` itself as a metatype: the scan stops at Object.prototype, whose built-ins are no handlers.
  if (typeof prototype !== 'object' || prototype === null || prototype === Object.prototype) return [];
  // A scanner of its own per call: a scanner caches every prototype it scanned (strongly) for as long as it lives.
  const methodNames = new MetadataScanner().getAllMethodNames(prototype);
  // The scanner keeps only names whose most derived property is a plain function, so reading it invokes no getter.
  const methods = prototype as Readonly<Record<string, RouteHandler>>;
  return methodNames.map((methodName) => ({ methodName, handler: methods[methodName] as RouteHandler }));
}
