/**
 * OpenTelemetry never changes or delays a decision: a meter provider, tracer, span or counter that throws is set
 * aside with one warning, the guarded decision answers as it would untraced (its permit, or its own error), and the
 * providers are looked at again later, so telemetry that recovers is used again.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { metrics, trace, type MeterProvider, type TracerProvider } from '@opentelemetry/api';
import { RECHECK_EVERY } from '../../runtime/core/decision-log/decision-tracing.js';
import { Permissions, type User } from '../../runtime/permissions/index.js';

type AppUser = User<number>;
const DEFINITIONS = [
  { roles: ['READER'], resource: 'doc', grant: ['read:any'] },
  { roles: ['OWNER'], resource: 'doc', possession: 'own' as const, grant: ['read'], isOwner: 'isMine', listOwned: 'listMine' },
];
const READER = { user: { id: 5, roles: ['READER'] }, resource: 'doc', action: 'read', resourceId: 7 } as const;
const OWNER = { user: { id: 5, roles: ['OWNER'] }, resource: 'doc', action: 'read', resourceId: 7 } as const;

/** An engine whose warnings are kept, and whose ownership method fails (a decision's own error). */
function engine(): { permissions: Permissions<AppUser>; warnings: string[] } {
  const warnings: string[] = [];
  const ownership = {
    isMine: () => {
      throw new Error('the ownership database is down');
    },
    listMine: () => [],
  };
  const permissions = new Permissions<AppUser>({
    ownership,
    resourceIdTypes: { doc: 'number' },
    logger: { warn: (message: string) => void warnings.push(message) },
  })
    .addPermissions(DEFINITIONS)
    .build();
  return { permissions, warnings };
}

/** A counter that records what it is added, and fails while `failing.add` is set. */
function meterProvider(failing: { getMeter?: boolean; add?: boolean }, added: string[]): MeterProvider {
  // Only what the engine calls: a meter's counter.
  const provider = {
    getMeter: () => {
      if (failing.getMeter === true) throw new Error('meter not ready');
      return {
        createCounter: () => ({
          add: (_value: number, attributes: Record<string, unknown>) => {
            if (failing.add === true) throw new Error('exporter full');
            added.push(String(attributes['typed_permissions.result']));
          },
        }),
      };
    },
  };
  return provider as unknown as MeterProvider;
}

/** A tracer provider whose spans fail at the step named by `failing`. */
function tracerProvider(failing: 'startSpan' | 'setAttributes' | 'recordException' | 'end'): TracerProvider {
  const fail = (step: string) => {
    if (failing === step) throw new Error(`${step} failed`);
  };
  const span = {
    setAttributes: () => fail('setAttributes'),
    recordException: () => fail('recordException'),
    setStatus: () => undefined,
    end: () => fail('end'),
  };
  const tracer = {
    startSpan: () => {
      fail('startSpan');
      return span;
    },
  };
  // Only what the engine calls: a tracer's startSpan and the span's methods.
  return { getTracer: () => tracer } as unknown as TracerProvider;
}

/** The outcome of a guarded decision: its grant, or its error's message. */
async function outcome(decision: Promise<{ granted: boolean }>): Promise<boolean | string> {
  return decision.then(
    (permit) => permit.granted,
    (error: unknown) => (error as Error).message,
  );
}

afterEach(() => {
  metrics.disable();
  trace.disable();
});

describe('telemetry that fails', () => {
  it('a meter provider that fails once: the decisions answer, one warning, and the counter is made at the next look', async () => {
    const failing = { getMeter: true };
    const added: string[] = [];
    metrics.setGlobalMeterProvider(meterProvider(failing, added));
    const { permissions, warnings } = engine();
    expect(await outcome(permissions.grantPermitVia(READER, 'test'))).toBe(true);
    failing.getMeter = false;
    for (let i = 2; i < RECHECK_EVERY; i++) expect(await outcome(permissions.grantPermitVia(READER, 'test'))).toBe(true);
    expect(added).toEqual([]);
    // The look at the RECHECK_EVERY-th decision finds the provider working: counted from then on.
    expect(await outcome(permissions.grantPermitVia(READER, 'test'))).toBe(true);
    expect(added).toEqual(['granted']);
    expect(warnings).toEqual([
      'typed-permissions: OpenTelemetry failed (the meter provider: meter not ready); decisions go on, untraced while it fails (said once).',
    ]);
  });

  it('a counter that throws: the grant, the refusal and the decision’s own error are the decision’s; counted again once it works', async () => {
    const failing = { add: true };
    const added: string[] = [];
    metrics.setGlobalMeterProvider(meterProvider(failing, added));
    const { permissions, warnings } = engine();
    expect(await outcome(permissions.grantPermitVia(READER, 'test'))).toBe(true);
    expect(await outcome(permissions.grantPermitVia({ ...READER, action: 'delete' }, 'test'))).toBe(false);
    expect(await outcome(permissions.grantPermitVia(OWNER, 'test'))).toBe('Ownership hook isMine threw: the ownership database is down');
    failing.add = false;
    expect(await outcome(permissions.grantPermitVia(READER, 'test'))).toBe(true);
    expect(added).toEqual(['granted']);
    expect(warnings).toEqual([
      'typed-permissions: OpenTelemetry failed (the decisions counter: exporter full); decisions go on, untraced while it fails (said once).',
    ]);
  });

  it.each(['startSpan', 'setAttributes', 'recordException', 'end'] as const)('a span whose %s throws: the decision answers as untraced', async (step) => {
    trace.setGlobalTracerProvider(tracerProvider(step));
    const { permissions, warnings } = engine();
    expect([
      await outcome(permissions.grantPermitVia(READER, 'test')),
      await outcome(permissions.grantPermitVia({ ...READER, action: 'delete' }, 'test')),
      await outcome(permissions.grantPermitVia(OWNER, 'test')),
    ]).toEqual([true, false, 'Ownership hook isMine threw: the ownership database is down']);
    expect(warnings).toEqual([`typed-permissions: OpenTelemetry failed (a span: ${step} failed); decisions go on, untraced while it fails (said once).`]);
  });

  it('a logger that throws while telemetry fails changes no decision either: at load, or at a later look', async () => {
    const failing = { getMeter: true };
    metrics.setGlobalMeterProvider(meterProvider(failing, []));
    const logger = {
      warn: () => {
        throw new Error('the log is full');
      },
    };
    const engine = () => new Permissions<AppUser>({ resourceIdTypes: { doc: 'number' }, logger }).addPermissions(DEFINITIONS.slice(0, 1)).build();
    expect(await outcome(engine().grantPermitVia(READER, 'test'))).toBe(true);
    failing.getMeter = false;
    const later = engine();
    expect(await outcome(later.grantPermitVia(READER, 'test'))).toBe(true);
    metrics.disable();
    metrics.setGlobalMeterProvider(meterProvider({ getMeter: true }, []));
    const outcomes = new Set<boolean | string>();
    for (let i = 0; i < RECHECK_EVERY; i++) outcomes.add(await outcome(later.grantPermitVia(READER, 'test')));
    expect([...outcomes]).toEqual([true]);
  });

  it('a provider registered later that fails: no guarded decision throws or rejects, synchronously or not', async () => {
    const { permissions, warnings } = engine();
    expect(await outcome(permissions.grantPermitVia(READER, 'test'))).toBe(true);
    metrics.setGlobalMeterProvider(meterProvider({ getMeter: true }, []));
    const outcomes = new Set<boolean | string>();
    for (let i = 0; i < RECHECK_EVERY + 10; i++) {
      let decision: Promise<{ granted: boolean }>;
      try {
        decision = permissions.grantPermitVia(READER, 'test');
      } catch (error) {
        outcomes.add(`thrown: ${(error as Error).message}`);
        continue;
      }
      outcomes.add(await outcome(decision));
    }
    expect([...outcomes]).toEqual([true]);
    expect(warnings).toEqual([
      'typed-permissions: OpenTelemetry failed (the meter provider: meter not ready); decisions go on, untraced while it fails (said once).',
    ]);
  });
});
