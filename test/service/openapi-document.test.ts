/**
 * The OpenAPI document (the committed docs/decision-service.openapi.json is checked by `npm run generate:check`):
 * its request schemas are the very schemas that validate requests; every operation documents its answers, problems included, and who may call it.
 */
import { describe, expect, it } from '@jest/globals';
import { decisionServiceOpenApi, DEFAULT_SERVICE_LIMITS, type OpenApiDocument, type OpenApiOperation } from '../../runtime/service/index.js';
import { checkAnswerSchema, checkRequestSchema, problemSchema, sliceRequestSchema } from '../../runtime/service/service-schemas.js';
import type { JsonSchema } from './service-fixture.js';

/** The operation of `method` on `path` (a test failure when there is none). */
function operationOf(document: OpenApiDocument, path: string, method: string): OpenApiOperation {
  const operation = document.paths[path]?.[method];
  if (operation === undefined) throw new Error(`the document has no ${method} ${path}`);
  return operation;
}

/** The JSON body schema of an operation's request, or of its answer with `status`. */
function bodySchema(operation: OpenApiOperation, status?: string): JsonSchema {
  const content = status === undefined ? operation.requestBody?.content : operation.responses[status]?.content;
  return content?.['application/json']?.schema as JsonSchema;
}

describe('the OpenAPI document', () => {
  it('documents requests with the schemas that validate them, and every answer', async () => {
    const document = await decisionServiceOpenApi();
    expect(bodySchema(operationOf(document, '/v1/check', 'post'))).toEqual(checkRequestSchema(DEFAULT_SERVICE_LIMITS));
    expect(bodySchema(operationOf(document, '/v1/slice', 'post'))).toEqual(sliceRequestSchema(DEFAULT_SERVICE_LIMITS));
    expect(bodySchema(operationOf(document, '/v1/check', 'post'), '200').properties['answers']?.items).toEqual(checkAnswerSchema);

    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );
    expect(operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`)).toEqual([
      'GET /healthz',
      'GET /readyz',
      'GET /metrics',
      'POST /v1/check',
      'POST /v1/slice',
      'GET /v1/policy',
    ]);
    for (const { path, operation } of operations) {
      expect([path, typeof operation.summary]).toEqual([path, 'string']);
      for (const [status, response] of Object.entries(operation.responses)) {
        expect([path, status, typeof response.description]).toEqual([path, status, 'string']);
        if (Number(status) >= 400) expect(response.content?.['application/problem+json']?.schema).toEqual(problemSchema);
      }
      // The probes are open; everything else needs a token (the document's default security).
      expect([path, operation.security]).toEqual([path, path === '/healthz' || path === '/readyz' ? [] : undefined]);
    }
    expect(document.security).toEqual([{ bearerToken: [] }]);
    expect(Object.keys(operationOf(document, '/v1/check', 'post').responses).sort()).toEqual(['200', '400', '401', '409', '413', '415', '429', '503']);
  });
});
