/**
 * The OpenAPI 3.1 document of the decision service. The service serves it at `/v1/openapi.json` (with its
 * configured limits, its server the origin it is fetched from); the repository commits the one of the default
 * limits as docs/decision-service.openapi.json, whose server is a template with the defaults of `serve`.
 */
import { BearerTokens } from './bearer-tokens.js';
import { createDecisionServer } from './decision-server.js';
import type { OpenApiDocument, OpenApiServer } from './openapi-from-routes.js';
import { resolveServiceLimits, type DecisionServiceLimits } from './service-limits.js';
import { ServiceMetrics } from './service-metrics.js';

/**
 * The server of a document read apart from a running service: `typed-permissions serve` listens on
 * http://127.0.0.1:8080 unless told otherwise; behind a load balancer that terminates TLS, its https address.
 */
export const DOCUMENT_FILE_SERVERS: readonly OpenApiServer[] = [
  {
    url: '{scheme}://{host}:{port}',
    description: 'A decision service (typed-permissions serve); the defaults are those of serve.',
    variables: {
      scheme: { default: 'http', enum: ['http', 'https'], description: 'https where a load balancer or proxy terminates TLS in front of the service.' },
      host: { default: '127.0.0.1', description: 'The host the service is reached at (serve --host).' },
      port: { default: '8080', description: 'The port the service is reached at (serve --port).' },
    },
  },
];

/**
 * The OpenAPI document of a decision service with `limits` (the defaults when left out), without starting one:
 * its server is {@link DOCUMENT_FILE_SERVERS}, a template with the defaults of `typed-permissions serve`.
 *
 * @example
 * ```ts
 * const document = await decisionServiceOpenApi();
 * writeFileSync('docs/decision-service.openapi.json', JSON.stringify(document, null, 2));
 * ```
 */
export async function decisionServiceOpenApi(limits?: DecisionServiceLimits): Promise<OpenApiDocument> {
  const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const { server, openApi } = await createDecisionServer(
    {
      limits: resolveServiceLimits(limits),
      tokens: new BearerTokens(),
      allowAnonymous: false,
      metrics: new ServiceMetrics(),
      logger: silent,
      policy: () => undefined,
    },
    DOCUMENT_FILE_SERVERS,
  );
  try {
    await server.ready();
    return openApi();
  } finally {
    await server.close();
  }
}
