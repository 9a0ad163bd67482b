/**
 * The OpenAPI 3.1 document of the decision service. The service serves it at `/v1/openapi.json` (with its
 * configured limits); the repository commits the one of the default limits as docs/decision-service.openapi.json.
 */
import { BearerTokens } from './bearer-tokens.js';
import { createDecisionServer } from './decision-server.js';
import type { OpenApiDocument } from './openapi-from-routes.js';
import { resolveServiceLimits, type DecisionServiceLimits } from './service-limits.js';
import { ServiceMetrics } from './service-metrics.js';

/**
 * The OpenAPI document of a decision service with `limits` (the defaults when left out), without starting one.
 *
 * @example
 * ```ts
 * const document = await decisionServiceOpenApi();
 * writeFileSync('docs/decision-service.openapi.json', JSON.stringify(document, null, 2));
 * ```
 */
export async function decisionServiceOpenApi(limits?: DecisionServiceLimits): Promise<OpenApiDocument> {
  const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const { server, openApi } = await createDecisionServer({
    limits: resolveServiceLimits(limits),
    tokens: new BearerTokens(),
    allowAnonymous: false,
    metrics: new ServiceMetrics(),
    logger: silent,
    policy: () => undefined,
  });
  try {
    await server.ready();
    return openApi();
  } finally {
    await server.close();
  }
}
