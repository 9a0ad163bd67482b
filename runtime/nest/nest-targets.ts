/**
 * The two kinds of value Nest keys its metadata by, typed more precisely than Nest's own `Function`:
 * the integration only reads their name, prototype and metadata, never calls or constructs them, so
 * `never[]` parameters (nothing can be passed) describe every class and every method exactly.
 */

/** A class Nest records metadata on: a controller, a module or a guard. */
export type NestClass = abstract new (...args: never[]) => unknown;

/** A route handler: the controller method whose function object keys its metadata. */
export type RouteHandler = (...args: never[]) => unknown;
