/**
 * The OpenAPI 3.1 document of the decision service, made by @fastify/swagger from the routes as Fastify registers
 * them — each with the schemas that validate its requests and shape its answers — so the document cannot say
 * anything the service does not do — nor leave out anything it does: the HEAD operations Fastify answers for every GET
 * route are listed too, without a body. The named schemas Fastify holds (`addSchema`) are the document's
 * `components.schemas`, under their `$id`s, and every `$ref` to one is `#/components/schemas/<$id>`.
 */
import type { FastifyInstance } from 'fastify';

/** What a route's schema says beyond validation: the words of the document, and who may call it. */
export interface RouteDocumentation {
  /** The operation's name for generated clients: camelCase, unique in the document. */
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  /** `[]`: anyone may call it; left out, a bearer token is needed. */
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  readonly body?: object;
  readonly response: Readonly<Record<string, object>>;
}

/** An OpenAPI schema: a reference to a named one (`#/components/schemas/<name>`), or one written out. */
export type OpenApiSchema = { readonly $ref: string } | Readonly<Record<string, unknown>>;

/** An OpenAPI response: its description and, per media type, the schema of its body. */
export interface OpenApiResponse {
  readonly description: string;
  /** The headers the answer carries, by name. */
  readonly headers?: Readonly<Record<string, { readonly description: string; readonly schema: OpenApiSchema }>>;
  readonly content?: Readonly<Record<string, { readonly schema: OpenApiSchema }>>;
}

/** An OpenAPI operation, as the decision service documents one. */
export interface OpenApiOperation {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly security?: readonly object[];
  readonly requestBody?: { readonly required: true; readonly content: { readonly 'application/json': { readonly schema: OpenApiSchema } } };
  readonly responses: Readonly<Record<string, OpenApiResponse>>;
}

/** A server of the document: where the paths are, with the variables its URL names (mutable as @fastify/swagger types it). */
export interface OpenApiServer {
  url: string;
  description: string;
  variables?: Record<string, { default: string; enum?: [string, ...string[]]; description: string }>;
}

/** An OpenAPI 3.1 document, as the decision service makes one. */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: {
    readonly title: string;
    readonly version: string;
    readonly description: string;
    readonly license: { readonly name: string; readonly identifier: string };
  };
  readonly servers: readonly OpenApiServer[];
  readonly components: {
    readonly securitySchemes: Readonly<Record<string, object>>;
    /** The named schemas, by name. */
    readonly schemas: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  };
  readonly security: readonly object[];
  /** Per path, per lower-case method. */
  readonly paths: Readonly<Record<string, Readonly<Record<string, OpenApiOperation>>>>;
}

/** The servers of the document a service serves: the origin it was fetched from (a relative URL resolves against it). */
export const SERVED_DOCUMENT_SERVERS: readonly OpenApiServer[] = [{ url: '/', description: 'This service: the origin this document was fetched from.' }];

/** The parts of the document that are not routes: what the service is, where, and how callers authenticate. */
const documentHead = (servers: readonly OpenApiServer[]) => ({
  openapi: '3.1.0' as const,
  info: {
    title: 'typed-permissions decision service',
    version: '1.0.0',
    description:
      'Decisions of a typed-permissions policy for applications that do not embed the engine. Ownership stays with the application: an ' +
      'answer names the ownership groups that decide a record and the methods to ask; send ownedBy for the final answer.',
    license: { name: 'MIT', identifier: 'MIT' },
  },
  servers: [...servers],
  components: { securitySchemes: { bearerToken: { type: 'http' as const, scheme: 'bearer', description: 'One of the tokens the service accepts.' } } },
  security: [{ bearerToken: [] }],
});

/** A route's schema, as @fastify/swagger hands it to `transform`: every response of the service's routes has a description. */
type RouteSchema = Readonly<Record<string, unknown>> & {
  readonly operationId?: string;
  readonly response?: Readonly<Record<string, { readonly description: string; readonly headers?: object }>>;
};

/**
 * The operation of a HEAD route (Fastify answers HEAD for every GET route): the GET operation's name with `Head`
 * appended (camelCase, where @fastify/swagger would append `-head`), and its responses without a body, since a HEAD
 * answer has none: the status and headers only (`type: 'null'` is how @fastify/swagger leaves a body out).
 *
 * @example
 * ```ts
 * headOperation({ operationId: 'health-head', summary: 'Liveness', response: { 200: bodyResponse('Alive.', 'HealthResponse') } }, '/healthz');
 * // { operationId: 'healthHead', summary: 'Liveness, without the body', response: { 200: { description: 'Alive.', type: 'null' } }, … }
 * ```
 */
function headOperation(schema: RouteSchema, url: string): RouteSchema {
  const response = Object.fromEntries(
    Object.entries(schema.response ?? {}).map(([status, { description, headers }]) => [
      status,
      { description, ...(headers === undefined ? {} : { headers }), type: 'null' },
    ]),
  );
  return {
    ...schema,
    operationId: `${(schema.operationId ?? '').replace(/-head$/, '')}Head`,
    summary: `${String(schema['summary'])}, without the body`,
    description: `What GET ${url} answers, without the body: its status and headers (a probe or a check that an answer is there).`,
    response,
  };
}

/**
 * Registers @fastify/swagger on `server` (before any route, so it sees them all) and returns the document maker:
 * call it once the server is ready. `servers` is what the document says the paths are relative to.
 *
 * @example
 * ```ts
 * const openApi = await collectOpenApi(server, SERVED_DOCUMENT_SERVERS);
 * registerRoutes(server);
 * await server.ready();
 * openApi().paths['/v1/check']?.['post']?.requestBody?.content['application/json'].schema; // { $ref: '#/components/schemas/CheckRequest' }
 * ```
 */
export async function collectOpenApi(server: FastifyInstance, servers: readonly OpenApiServer[]): Promise<() => OpenApiDocument> {
  const { default: swagger } = await import('@fastify/swagger');
  await server.register(swagger, {
    openapi: documentHead(servers),
    hideUntagged: false,
    // Fastify answers HEAD for every GET route (its exposeHeadRoutes): the document lists those operations too.
    exposeHeadRoutes: true,
    transform: ({ schema, url, route }) => (route.method === 'HEAD' ? { schema: headOperation(schema as RouteSchema, url), url } : { schema, url }),
    // A named schema keeps its $id as its name in components.schemas (the library's default numbers them).
    refResolver: {
      buildLocalReference: (schema) => {
        if (typeof schema['$id'] !== 'string') throw new Error(`A schema the document refers to has no $id: ${JSON.stringify(schema).slice(0, 200)}`);
        return schema['$id'];
      },
    },
  });
  let document: OpenApiDocument | undefined;
  return () => {
    if (document === undefined) {
      // A copy without the library's extras, in the order people read a document: what, where, who, the operations, their schemas.
      const { openapi, info, servers, security, paths, components } = JSON.parse(JSON.stringify(server.swagger())) as OpenApiDocument;
      document = { openapi, info, servers, security, paths, components };
    }
    return document;
  };
}
