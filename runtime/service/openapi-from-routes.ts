/**
 * The OpenAPI 3.1 document of the decision service, made by @fastify/swagger from the routes as Fastify registers
 * them — each with the schemas that validate its requests and shape its answers — so the document cannot say
 * anything the service does not do.
 */
import type { FastifyInstance } from 'fastify';

/** What a route's schema says beyond validation: the words of the document, and who may call it. */
export interface RouteDocumentation {
  readonly summary?: string;
  readonly description?: string;
  /** `[]`: anyone may call it; left out, a bearer token is needed. */
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  /** Left out of the document. */
  readonly hide?: boolean;
  readonly body?: object;
  readonly response?: Readonly<Record<string, object>>;
}

/** An OpenAPI response: its description and, per media type, the schema of its body. */
export interface OpenApiResponse {
  readonly description: string;
  readonly content?: Readonly<Record<string, { readonly schema: object }>>;
}

/** An OpenAPI operation, as the decision service documents one. */
export interface OpenApiOperation {
  readonly summary?: string;
  readonly description?: string;
  readonly security?: readonly object[];
  readonly requestBody?: { readonly content: { readonly 'application/json': { readonly schema: object } } };
  readonly responses: Readonly<Record<string, OpenApiResponse>>;
}

/** An OpenAPI 3.1 document, as the decision service makes one. */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly components: { readonly securitySchemes: Readonly<Record<string, object>> };
  readonly security: readonly object[];
  /** Per path, per lower-case method. */
  readonly paths: Readonly<Record<string, Readonly<Record<string, OpenApiOperation>>>>;
}

/** The parts of the document that are not routes: what the service is, and how callers authenticate. */
const documentHead = () => ({
  openapi: '3.1.0' as const,
  info: {
    title: 'typed-permissions decision service',
    version: '1.0.0',
    description:
      'Decisions of a typed-permissions policy for applications that do not embed the engine. Ownership stays with the application: an ' +
      'answer names the ownership groups that decide a record and the methods to ask; send ownedBy for the final answer.',
  },
  components: { securitySchemes: { bearerToken: { type: 'http' as const, scheme: 'bearer', description: 'One of the tokens the service accepts.' } } },
  security: [{ bearerToken: [] }],
});

/**
 * Registers @fastify/swagger on `server` (before any route, so it sees them all) and returns the document maker:
 * call it once the server is ready.
 *
 * @example
 * ```ts
 * const openApi = await collectOpenApi(server);
 * registerRoutes(server);
 * await server.ready();
 * openApi().paths['/v1/check']?.['post']?.requestBody; // the schema POST /v1/check validates with
 * ```
 */
export async function collectOpenApi(server: FastifyInstance): Promise<() => OpenApiDocument> {
  const { default: swagger } = await import('@fastify/swagger');
  await server.register(swagger, { openapi: documentHead(), hideUntagged: false });
  let document: OpenApiDocument | undefined;
  // A copy without the library's extras (the `x-` keys a JSON round trip keeps are its own): the shape above.
  return () => (document ??= JSON.parse(JSON.stringify(server.swagger())) as OpenApiDocument);
}
