/**
 * OpenTelemetry of guarded decisions. `@opentelemetry/api` is an optional peer: it is looked up once, where
 * Node.js can load it synchronously, and without it (or in a browser) nothing is traced and nothing is
 * paid. With it and a registered SDK, each decision an integration asks for is a span
 * `typed_permissions.decide`, and a counter `typed_permissions.decisions` counts decisions by result.
 * Installed without an SDK, the API would still make a non-recording span per decision and an extra await;
 * instead, whether an SDK is registered is looked at once every {@link RECHECK_EVERY} decisions, and until one
 * is, a decision goes the untraced way.
 */
import type { GrantQuery } from '../decision/grant-query.js';
import type { Permit } from '../decision/permit.js';
import { thrownText } from '../common/thrown-text.js';

/** The part of `@opentelemetry/api` used here (typed locally: the package is an optional peer). */
interface OpenTelemetryApi {
  readonly trace: { getTracer(name: string): Tracer; getTracerProvider(): unknown };
  readonly metrics: { getMeterProvider(): MeterProvider };
  readonly ProxyTracerProvider: new () => { getDelegate(): unknown };
  createNoopMeter(): unknown;
  readonly SpanStatusCode: { readonly ERROR: number };
  readonly SpanKind: { readonly INTERNAL: number };
}
interface Tracer {
  startSpan(name: string, options: { kind: number; attributes: Attributes }): Span;
}
interface Span {
  setAttributes(attributes: Attributes): unknown;
  recordException(exception: unknown): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}
interface Meter {
  createCounter(name: string, options: { description: string; unit: string }): Counter;
}
interface MeterProvider {
  getMeter(name: string): Meter;
}
interface Counter {
  add(value: number, attributes: Attributes): void;
}
type Attributes = Record<string, string | number | boolean>;

/** The instrumentation scope's name. */
export const TELEMETRY_SCOPE = 'typed-permissions';
/** The span of one decision. */
export const DECIDE_SPAN = 'typed_permissions.decide';
/** The counter of decisions, by `typed_permissions.result` (granted, denied, error). */
export const DECISIONS_COUNTER = 'typed_permissions.decisions';

/** How many decisions go by between two looks at whether a tracer or meter provider was registered. */
export const RECHECK_EVERY = 1024;

let api: OpenTelemetryApi | null | undefined;

/** `@opentelemetry/api`, when it is installed and this is Node.js; null otherwise. Looked up once per process. */
function openTelemetryApi(): OpenTelemetryApi | null {
  if (api !== undefined) return api;
  api = null;
  try {
    const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
    const nodeModule =
      typeof getBuiltinModule === 'function' ? (getBuiltinModule('node:module') as { createRequire?: (from: string) => (id: string) => unknown }) : undefined;
    if (typeof nodeModule?.createRequire === 'function') {
      const loaded = nodeModule.createRequire(import.meta.url)('@opentelemetry/api') as Partial<OpenTelemetryApi>;
      if (
        typeof loaded.trace?.getTracer === 'function' &&
        typeof loaded.trace.getTracerProvider === 'function' &&
        typeof loaded.metrics?.getMeterProvider === 'function' &&
        typeof loaded.ProxyTracerProvider === 'function' &&
        typeof loaded.createNoopMeter === 'function'
      )
        api = loaded as OpenTelemetryApi;
    }
  } catch {
    // Not installed (an optional peer): nothing is traced.
  }
  return api;
}

/** What the engine is told when telemetry fails: once per kind of failure, with the error's message. */
export type TelemetryWarn = (message: string) => void;

/**
 * The tracing of one engine's guarded decisions. Telemetry never changes or delays a decision: a tracer, meter,
 * span or counter that throws is set aside (said once through `warn`), the decision goes on untraced, and
 * the providers are looked at again {@link RECHECK_EVERY} decisions later.
 *
 * @example
 * ```ts
 * const tracing = DecisionTracing.load({ userId: false }, (message) => console.warn(message));
 * const permit = await (tracing?.trace(query, 'nest', () => snapshot.grantPermit(query, 'nest')) ?? snapshot.grantPermit(query, 'nest'));
 * ```
 */
export class DecisionTracing {
  /** The tracer; undefined while the API's `getTracer` fails. */
  private tracer: Tracer | undefined;
  /** The tracer provider the API answers while no SDK is registered. */
  private readonly noopTracerProvider: unknown;
  private meterProvider: MeterProvider | undefined;
  /** The counter of the registered meter provider; undefined while none is registered. */
  private counter: Counter | undefined;
  private tracing = false;
  private decisions = 0;
  private readonly warned = new Set<string>();

  private constructor(
    private readonly api: OpenTelemetryApi,
    private readonly userId: boolean,
    private readonly warn: TelemetryWarn,
  ) {
    // A proxy without a delegate answers the API's no-op provider: what getTracerProvider() delegates to until an SDK registers.
    this.noopTracerProvider = new api.ProxyTracerProvider().getDelegate();
    this.lookForProviders();
  }

  /**
   * Whether this decision is traced or counted: true once a tracer or meter provider is registered (looked at
   * once every {@link RECHECK_EVERY} decisions, so one registered after start is used from then on).
   */
  active(): boolean {
    if ((++this.decisions & (RECHECK_EVERY - 1)) === 0) this.lookForProviders();
    return this.tracing || this.counter !== undefined;
  }

  /** Says `what` failed, once per kind; the decision goes on untraced. */
  private failed(what: string, error: unknown): void {
    if (this.warned.has(what)) return;
    this.warned.add(what);
    try {
      this.warn(`OpenTelemetry failed (${what}: ${thrownText(error)}); decisions go on, untraced while it fails (said once).`);
    } catch {
      // A logger that throws changes no decision either.
    }
  }

  private lookForProviders(): void {
    try {
      this.tracer ??= this.api.trace.getTracer(TELEMETRY_SCOPE);
      const provider = this.api.trace.getTracerProvider() as { getDelegate?: () => unknown };
      this.tracing = typeof provider?.getDelegate !== 'function' || provider.getDelegate() !== this.noopTracerProvider;
    } catch (error) {
      this.tracing = false;
      this.failed('the tracer provider', error);
    }
    try {
      // The metrics API has no proxy provider: the counter is made again for a newly registered one.
      const meterProvider = this.api.metrics.getMeterProvider();
      if (meterProvider !== this.meterProvider) {
        this.counter = undefined;
        const meter = meterProvider.getMeter(TELEMETRY_SCOPE);
        this.counter =
          meter === this.api.createNoopMeter()
            ? undefined
            : meter.createCounter(DECISIONS_COUNTER, { description: 'Permission decisions, by result', unit: '{decision}' });
        // Kept only once its counter is made: a provider that failed is asked again at the next look.
        this.meterProvider = meterProvider;
      }
    } catch (error) {
      this.counter = undefined;
      this.failed('the meter provider', error);
    }
  }

  /** The tracing, or undefined where `@opentelemetry/api` is not installed. */
  static load(options: { readonly userId: boolean }, warn: TelemetryWarn): DecisionTracing | undefined {
    const loaded = openTelemetryApi();
    return loaded === null ? undefined : new DecisionTracing(loaded, options.userId, warn);
  }

  /** Runs `decide` inside a span describing it, and counts its result; the decision's answer or error is never telemetry's. */
  async trace<TPermit extends Permit<any, any, any>>(query: GrantQuery<any, unknown>, via: string, decide: () => Promise<TPermit>): Promise<TPermit> {
    const attributes: Attributes = { 'typed_permissions.via': via };
    // The query is checked by the decision; here only well-typed values become attributes.
    if (typeof query?.resource === 'string') attributes['typed_permissions.resource'] = query.resource;
    if (typeof query?.action === 'string') attributes['typed_permissions.action'] = query.action;
    const id: unknown = (query?.user as { id?: unknown } | undefined)?.id;
    if (this.userId && (typeof id === 'string' || typeof id === 'number')) attributes['typed_permissions.user.id'] = id;
    const span = this.startSpan(attributes);
    let permit: TPermit;
    try {
      permit = await decide();
    } catch (error) {
      this.record(span, 'error', attributes, (open) => {
        open.recordException(error instanceof Error ? error : String(error));
        open.setStatus({ code: this.api.SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
      });
      throw error;
    }
    this.record(span, permit.granted ? 'granted' : 'denied', attributes, (open) =>
      open.setAttributes({
        'typed_permissions.granted': permit.granted,
        'typed_permissions.possession': permit.anyGranted ? 'any' : permit.granted ? 'own' : 'none',
        'typed_permissions.policy.version': permit.policyVersion,
        'typed_permissions.call_id': permit.callId,
      }),
    );
    return permit;
  }

  /** The decision's span, or undefined when not tracing or when the tracer fails. */
  private startSpan(attributes: Attributes): Span | undefined {
    if (!this.tracing || this.tracer === undefined) return undefined;
    try {
      return this.tracer.startSpan(DECIDE_SPAN, { kind: this.api.SpanKind.INTERNAL, attributes });
    } catch (error) {
      this.failed('a span', error);
      return undefined;
    }
  }

  /** Writes the outcome into `span` and ends it, and counts the decision; what fails there is said once and dropped. */
  private record(span: Span | undefined, result: 'granted' | 'denied' | 'error', attributes: Attributes, describe: (span: Span) => void): void {
    if (span !== undefined)
      try {
        describe(span);
        span.end();
      } catch (error) {
        this.failed('a span', error);
      }
    try {
      this.counter?.add(1, {
        'typed_permissions.result': result,
        'typed_permissions.via': attributes['typed_permissions.via'] as string,
        ...(attributes['typed_permissions.resource'] === undefined ? {} : { 'typed_permissions.resource': attributes['typed_permissions.resource'] }),
      });
    } catch (error) {
      this.failed('the decisions counter', error);
    }
  }
}
