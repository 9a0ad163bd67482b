/**
 * typed-permissions/service — the decision service: typed-permissions as a shared HTTP service on Fastify
 * (`createDecisionService`, and `npx typed-permissions serve`), following a policy source like an embedded
 * engine, for applications that do not embed the engine. Needs the optional peers fastify, @fastify/rate-limit,
 * @fastify/swagger and prom-client.
 */
export { createDecisionService, isLoopbackHost, type DecisionService, type DecisionServiceOptions } from './decision-service.js';
export type { ServiceLogger } from './service-logger.js';
export { DEFAULT_SERVICE_LIMITS, type DecisionServiceLimits, type ResolvedServiceLimits } from './service-limits.js';
export { decisionServiceOpenApi } from './openapi-document.js';
export type { OpenApiDocument, OpenApiOperation, OpenApiResponse } from './openapi-from-routes.js';
export type { CheckAnswer, CheckQuery, CheckUser, OwnershipGroupAnswer } from './check-answers.js';
export type { PolicyAnswer } from './policy-answer.js';
export type { Problem, ProblemKind } from './problem-details.js';
