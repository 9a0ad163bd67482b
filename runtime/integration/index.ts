/**
 * typed-permissions/integration — the kit an integration of a web framework is built on: it turns a request into
 * a decision, and the decision into what to send. An integration only maps its framework's request and
 * response to it:
 *
 * 1. at start (or on a route's first request), where the route's record id comes from: `resolveRoute` (string
 *    paths such as `/documents/:id`), or `routePathParams` and `resolveResourceIdParam` for routes described
 *    otherwise;
 * 2. per request, the raw id (`rawResourceIdOf`) and the id it names (`projectRequestId`: a 400 answer for an id
 *    that is no id of the resource);
 * 3. the decision (`decideRequest`, with the integration's label for the decision log): the permit and the
 *    decision headers, or the 403 answer;
 * 4. any other error as an answer (`answerOfError`: 401 or another 4xx the application's own code throws, else
 *    500 with nothing of the error in it), and the error of a 500 to the application's reporter
 *    (`serverErrorReporter`: a reporter that throws changes nothing of the answer); what the application's code
 *    threw goes to the framework as an Error (`errorOfThrown`), since frameworks read other values otherwise.
 *
 * At start, `checkPermitOptions` and `checkPermitRoute` check a `permit` factory's options and each route's
 * `permit({ action })`, with the same messages in every integration; an integration's other options are checked
 * with the runtime's shape checker (`object`, `optional`, `valid`, `usageChecked`).
 *
 * Answers are data — a status and a JSON body `{ statusCode, error, message }` — the same in every integration.
 */
export {
  DEFAULT_RESOURCE_ID_PARAM,
  isResourceIdParamProblem,
  resolveResourceIdParam,
  type DeclaredParam,
  type DefaultIdPosition,
  type ResolvedResourceIdParam,
  type ResourceIdParamProblem,
  type ResourceIdParamSetting,
} from './resource-id-param.js';
export { routePathParams } from './route-path-params.js';
export { describePaths, rawResourceIdOf, type ResourceIdRoute } from './request-resource-id.js';
export { resolveRoute, type RouteToResolve } from './resolve-route.js';
export { decideRequest, permissionsEngineOf, projectRequestId, type RequestDecision, type RequestResourceId } from './decide-request.js';
export {
  answerOfError,
  errorAnswer,
  forbiddenReason,
  INTERNAL_ERROR_MESSAGE,
  type ErrorAnswer,
  type ErrorBody,
  type ForbiddenReason,
  type PermissionsErrorBody,
  type PermissionsForbiddenBody,
} from './error-answers.js';
export {
  checkPermitOptions,
  checkPermitRoute,
  type CheckedPermitOptions,
  type CheckedPermitRoute,
  type IntegrationFactory,
  type PermitOptions,
  type PermitRouteOptions,
} from './permit-options.js';
export { serverErrorReporter, type ServerErrorReporter } from './server-error-reporter.js';
export { errorOfThrown, ThrownValueError } from './thrown-value.js';
export { CALL_ID_HEADER, decisionHeaders, POLICY_VERSION_HEADER, type DecisionHeaders } from './decision-headers.js';
export { DECISION_LABEL_PATTERN, MAX_DECISION_LABELS } from '../core/decision/decision-labels.js';
export { PERMISSIONS_OPTION_KEYS } from '../permissions/permissions-options.js';
export type { ProjectResourceId } from '../core/decision/resource-id.js';
export type { ResourceActionsOf } from '../permissions/schema-types.js';
export { describeValue } from '../core/common/describe-value.js';
// The shape checker, for the options of an integration's own (a module's, a plugin's), checked as the runtime's are.
export {
  object,
  optional,
  usageChecked,
  valid,
  type Fields,
  type ObjectProblems,
  type Problem,
  type Shape,
  type ShapeType,
} from '../core/shape/shape-check.js';
