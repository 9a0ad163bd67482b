/**
 * What one run of the bench does: the settings of a full run (`npm run bench`) and of the smoke run that `npm test`
 * does, with tiny counts and no processes spawned. Every benchmark reads its part from here, so that the two runs
 * differ in one place.
 */
import type { Scale } from './scenario.js';

/** Load of an HTTP benchmark: autocannon's connections and seconds, after a warm-up per endpoint. */
export interface LoadSettings {
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  readonly connections: number;
}

/** The propagation of a publish to instances following a PostgreSQL store. */
export interface PropagationSettings {
  readonly publishes: number;
  readonly polledPublishes: number;
  readonly pollIntervalMs: number;
}

/** Requests served while the policy file is replaced. */
export interface RequestsDuringSwapsSettings {
  readonly connections: number;
  readonly durationSeconds: number;
  /** Pairs of rounds (quiet, swapping), run in ABBA order. */
  readonly roundPairs: number;
  readonly swapIntervalMs: number;
}

/** What the live-policy benchmark does in one run; the parts left undefined are skipped (the smoke run). */
export interface LivePolicySettings {
  readonly swaps: number;
  readonly propagation: PropagationSettings | undefined;
  readonly requests: RequestsDuringSwapsSettings | undefined;
}

/** What the list-filter benchmark measures on. */
export interface ListFilterSettings {
  /** `server`: the PostgreSQL server (BENCH_DATABASE_URL, TEST_DATABASE_URL or a throwaway one); `pglite`: embedded. */
  readonly database: 'server' | 'pglite';
  /** The sizes of the documents table measured, one table per size. */
  readonly documentCounts: readonly number[];
  /** Documents per user: the users table grows with the documents, so each role owns as many at every size. */
  readonly documentsPerUser: number;
  /** Pages timed per role and size, walked from the first: their cursors are cycled through. */
  readonly pages: number;
  /** Rounds of one page per side, interleaved. */
  readonly comparison: InterleavedSettings;
}

/** The tenants benchmark: tenants with custom roles in a store, decisions in them, the cache's memory, propagation. */
export interface TenantSettings {
  /** `server`: the PostgreSQL server when one is found (else the folder store); `folder`: the folder store. */
  readonly store: 'server' | 'folder';
  /** Tenants in the store, and custom roles each. */
  readonly tenants: number;
  readonly rolesPerTenant: number;
  /** Distinct cold tenants whose first decision is timed. */
  readonly coldTenants: number;
  /** Tenants whose engine keeps warm and cycles through in the warm comparison. */
  readonly warmTenants: number;
  /** Rounds of the warm comparison, in a tenant and without, interleaved. */
  readonly warm: InterleavedSettings;
  /** The cache of the memory part (every tenant of the store is asked, in turn). */
  readonly maxTenants: number;
  /** Changes published while three instances follow the store (undefined: skipped). */
  readonly propagationChanges: number | undefined;
}

/** The mitata options the bench sets (a subset of its `k_options`). */
export interface MitataOptions {
  readonly min_cpu_time: number;
  readonly min_samples: number;
  readonly max_samples: number;
  readonly warmup_samples: number;
  readonly batch_samples: number;
  /** `false`: no collection before each measurement (mitata makes one when it can); a smoke run's figures are not read. */
  readonly gc?: false;
}

/** Rounds of an interleaved comparison: each side runs `iterationsPerRound` calls per round, in turn. */
export interface InterleavedSettings {
  /** Rounds run first and not recorded, while V8 optimises both sides. */
  readonly warmupRounds: number;
  readonly rounds: number;
  readonly iterationsPerRound: number;
}

/** What one run of the bench does. */
export interface BenchSettings {
  readonly smoke: boolean;
  readonly mitata: MitataOptions;
  /** Queries per decision case; the timed function cycles through them. A power of two. */
  readonly queriesPerCase: number;
  /** Scales the decision benchmark runs at. */
  readonly decisionScales: readonly Scale[];
  /** Items given to filterPick. */
  readonly filterPickItems: number;
  /** Timed compile() runs per scale (in process, each into a fresh folder). */
  readonly compileRuns: Readonly<Record<Scale, number>>;
  /** Also time the CLI in a fresh process, and `tsc --noEmit` of the 10× output. */
  readonly spawnProcesses: boolean;
  /** Instances built for heap per instance, and calls per allocation sample. */
  readonly memory: { readonly instances: number; readonly callsPerSample: number; readonly samples: number };
  /** The awaited pick against a three-rule CASL ability: rounds of calls, alternating between the two. */
  readonly awaitedPick: InterleavedSettings;
  /** The decision log's and OpenTelemetry's cost: rounds of decisions with and without, alternating. */
  readonly decisionLog: InterleavedSettings;
  /**
   * The ownership benchmark on PGlite: documents in the database, and timed runs of
   * grantPermit + filterPick per variant (after one untimed run that counts the statements).
   */
  readonly ownership: { readonly documents: number; readonly runs: { readonly before: number; readonly after: number } };
  /** The list-filter benchmark: a page of the documents each role may read, by the rule's filter and by hand. */
  readonly listFilters: ListFilterSettings;
  /** Swaps timed in process; propagation and requests during swaps (undefined: skipped). */
  readonly livePolicy: LivePolicySettings;
  readonly tenants: TenantSettings;
  /** The replay benchmark: logged decisions written to a JSON Lines file, then replayed against a candidate. */
  readonly replay: { readonly decisions: number };
  /** autocannon settings; undefined skips the HTTP benchmark. */
  readonly http: LoadSettings | undefined;
  /** autocannon settings of the decision service's benchmark; undefined skips it. */
  readonly service: LoadSettings | undefined;
}

/**
 * The settings of a full run or of the smoke run (tiny counts, no processes spawned, no HTTP).
 *
 * @example
 * ```ts
 * const settings = benchSettings(process.argv.includes('--smoke') ? 'smoke' : 'full');
 * ```
 */
export function benchSettings(mode: 'full' | 'smoke'): BenchSettings {
  if (mode === 'smoke') {
    return {
      smoke: true,
      mitata: { min_cpu_time: 0, min_samples: 1, max_samples: 2, warmup_samples: 0, batch_samples: 2, gc: false },
      queriesPerCase: 8,
      decisionScales: [1],
      filterPickItems: 1000,
      compileRuns: { 1: 1, 10: 0 },
      spawnProcesses: false,
      memory: { instances: 1, callsPerSample: 50, samples: 1 },
      awaitedPick: { warmupRounds: 1, rounds: 2, iterationsPerRound: 20 },
      decisionLog: { warmupRounds: 1, rounds: 2, iterationsPerRound: 20 },
      ownership: { documents: 200, runs: { before: 1, after: 1 } },
      listFilters: {
        database: 'pglite',
        documentCounts: [2_000],
        documentsPerUser: 100,
        pages: 3,
        comparison: { warmupRounds: 1, rounds: 3, iterationsPerRound: 1 },
      },
      livePolicy: { swaps: 3, propagation: undefined, requests: undefined },
      tenants: {
        store: 'folder',
        tenants: 24,
        rolesPerTenant: 20,
        coldTenants: 8,
        warmTenants: 4,
        warm: { warmupRounds: 1, rounds: 2, iterationsPerRound: 50 },
        maxTenants: 8,
        propagationChanges: undefined,
      },
      replay: { decisions: 2_000 },
      http: undefined,
      service: undefined,
    };
  }
  return {
    smoke: false,
    mitata: { min_cpu_time: 300e6, min_samples: 12, max_samples: 1e9, warmup_samples: 2, batch_samples: 4096 },
    queriesPerCase: 64,
    decisionScales: [1, 10],
    filterPickItems: 1000,
    compileRuns: { 1: 5, 10: 3 },
    spawnProcesses: true,
    memory: { instances: 5, callsPerSample: 5000, samples: 9 },
    awaitedPick: { warmupRounds: 4, rounds: 20, iterationsPerRound: 20_000 },
    decisionLog: { warmupRounds: 6, rounds: 30, iterationsPerRound: 5_000 },
    ownership: { documents: 10_000, runs: { before: 3, after: 15 } },
    listFilters: {
      database: 'server',
      documentCounts: [10_000, 100_000],
      documentsPerUser: 100,
      pages: 20,
      comparison: { warmupRounds: 20, rounds: 400, iterationsPerRound: 1 },
    },
    livePolicy: {
      swaps: 50,
      propagation: { publishes: 20, polledPublishes: 10, pollIntervalMs: 1000 },
      requests: { connections: 10, durationSeconds: 5, roundPairs: 2, swapIntervalMs: 100 },
    },
    tenants: {
      store: 'server',
      tenants: 10_000,
      rolesPerTenant: 20,
      coldTenants: 1_000,
      warmTenants: 16,
      // Short rounds (about 2 ms); many of them, since on a shared machine a round now and then is slowed by something
      // else. Twenty warm-up rounds: with four, the first question's tenant side was still at 2.6× (not yet optimised
      // after the cold tenants' calls).
      warm: { warmupRounds: 20, rounds: 60, iterationsPerRound: 20_000 },
      maxTenants: 1_000,
      propagationChanges: 30,
    },
    replay: { decisions: 1_000_000 },
    http: { warmupSeconds: 1, durationSeconds: 5, connections: 10 },
    service: { warmupSeconds: 1, durationSeconds: 5, connections: 10 },
  };
}
