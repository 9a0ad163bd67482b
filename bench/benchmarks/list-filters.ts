/**
 * List filters of ownership rules: a page of 50 documents, by keyset cursor, of the documents each role of the
 * ownership-rules example may read — EMPLOYEE (rule `creator`), MANAGER (`creatorOrManaged`), COMPANY_ADMIN
 * (`sameCompany`) — at each size of the documents table. Six ways to fetch the same page, timed in interleaved
 * rounds of one page each:
 *
 * - the rule's filter through kyselyOwnership: `grantPermitSync` then `.where(ownershipRules.where(permit))`;
 * - the hand-written kysely query for the same rows (the user's id, the list of ids, a join on the company);
 * - the rule's filter through prismaOwnership, on a Prisma client generated for the same tables;
 * - CASL's `accessibleBy` (@casl/prisma) on the same client, the ability built from the same conditions;
 * - the first two's statements compiled beforehand and only executed (`db.executeQuery`): what building the query
 *   costs each, apart from running it.
 *
 * Before timing, every page that is timed must be exactly the page the data says, from all six. Also: the SQL
 * statements of one page per way (the statement counter for kysely, Prisma's query events), the statements
 * `filterPick` of the page adds, and EXPLAIN of each way's first page (which index the plan uses). Targets: the
 * rule's page within 1.1× of the hand-written one, in one statement.
 */
import { isDeepStrictEqual } from 'node:util';
import { accessibleBy, createPrismaAbility } from '@casl/prisma/runtime';
import type { CompiledQuery, Kysely, SelectQueryBuilder } from 'kysely';
import { compileModel } from '../../compiler/model/compile-model.js';
import { kyselyOwnership } from '../../runtime/kysely/index.js';
import type { GrantTables } from '../../runtime/core/tables/grant-tables.js';
import { permissionsFromTables } from '../../runtime/permissions/precompiled-permissions.js';
import { prismaOwnership } from '../../runtime/prisma/index.js';
import type { Benchmark, BenchContext, Skipped } from '../harness/benchmark.js';
import { formatNs, formatRatio, table } from '../harness/format.js';
import {
  createListFilterData,
  generateListFilterPrismaClient,
  openPgliteDatabase,
  openServerDatabase,
  type DocumentRow,
  type ListFilterData,
  type ListFilterDatabase,
  type ListFilterTables,
} from '../harness/list-filter-database.js';
import { findPostgresServer } from '../harness/postgres-server.js';
import type { TargetVerdict } from '../harness/report.js';
import { Random } from '../harness/random.js';
import { REPO_ROOT, withRunFolder } from '../harness/repository.js';
import type { InterleavedSettings } from '../harness/settings.js';
import { StatementCounter } from '../harness/statement-counter.js';
import { interleavedRounds, type TimedSide } from '../harness/timing.js';
import { join } from 'node:path';

/** Rows per page. */
export const PAGE_SIZE = 50;

/** The ways to fetch a page, by their name in the report. */
export const LIST_FILTER_SIDES = {
  ruleKysely: 'rule filter, kyselyOwnership',
  handWritten: 'hand-written query, kysely',
  rulePrisma: 'rule filter, prismaOwnership',
  casl: 'CASL accessibleBy, @casl/prisma',
  ruleCompiled: 'rule filter, statement compiled beforehand',
  handCompiled: 'hand-written, statement compiled beforehand',
} as const;

/** The ways EXPLAIN is shown for: the two compiled beforehand send the statements of the first two. */
export const EXPLAINED_SIDES = [LIST_FILTER_SIDES.ruleKysely, LIST_FILTER_SIDES.handWritten, LIST_FILTER_SIDES.rulePrisma, LIST_FILTER_SIDES.casl];

type SideKey = keyof typeof LIST_FILTER_SIDES;
const SIDE_KEYS = Object.keys(LIST_FILTER_SIDES) as SideKey[];

/** The example's roles, the rule each one's `read` names, and the user of each (see list-filter-database.ts). */
export const LIST_FILTER_ROLES = [
  { role: 'EMPLOYEE', rule: 'creator', userId: 5 },
  { role: 'MANAGER', rule: 'creatorOrManaged', userId: 11 },
  { role: 'COMPANY_ADMIN', rule: 'sameCompany', userId: 21 },
] as const;

type RoleCase = (typeof LIST_FILTER_ROLES)[number];

/** A user as the rules read it, loaded from the tables as the example app loads one. */
interface RuleUser {
  readonly id: number;
  readonly roles: readonly string[];
  readonly companyId: number | null;
  readonly managedUserIds: readonly number[];
}

/** One way's page: its statements, and its per-page times over the interleaved rounds. */
export interface ListFilterSideResult {
  readonly side: string;
  readonly statementsPerPage: number;
  readonly medianNs: number;
  readonly p95Ns: number;
  readonly p99Ns: number;
  /** medianNs ÷ the hand-written query's. */
  readonly ratioToHandWritten: number;
}

/** What EXPLAIN says of one way's first page. */
export interface ListFilterPlan {
  readonly side: string;
  /** Every scan of the plan, outermost first: node type, index, table. */
  readonly scans: readonly string[];
  /** The tables read by a sequential scan. */
  readonly sequentialScans: readonly string[];
}

/** One role at one size. */
export interface ListFilterCase {
  readonly documents: number;
  readonly users: number;
  readonly role: string;
  readonly rule: string;
  readonly userId: number;
  /** Documents the rule selects for this user. */
  readonly selected: number;
  /** Pages timed (walked from the first; fewer when the user has fewer). */
  readonly pages: number;
  /** Every way returned exactly the expected rows on every timed page. */
  readonly identical: boolean;
  /** The ways that did not, with the page's cursor. */
  readonly mismatches: readonly string[];
  readonly sides: readonly ListFilterSideResult[];
  /** Statements `permit.filterPick(page)` runs after the page is fetched (its ownedAmong). */
  readonly filterPickStatements: number;
  readonly plans: readonly ListFilterPlan[];
}

export interface ListFiltersResult {
  /** When it was measured: `--only listFilters` writes it into a run recorded earlier. */
  readonly measuredAt: string;
  readonly database: string;
  readonly pageSize: number;
  readonly comparison: InterleavedSettings;
  readonly cases: readonly ListFilterCase[];
}

/** The example's definitions, compiled: its three rules and the roles that name them. */
function exampleTables(): GrantTables {
  const compiled = compileModel(join(REPO_ROOT, 'examples', 'ownership-rules', 'definitions'));
  if (!compiled.ok) throw new Error(`list filters: the ownership-rules example does not compile: ${JSON.stringify(compiled.problems)}`);
  return compiled.model.tables;
}

/** Whether the data says the rule of `role` selects `document` for `user`: written from the rules' meaning, not run through them. */
function selects(role: RoleCase['role'], user: RuleUser, data: ListFilterData, document: DocumentRow): boolean {
  switch (role) {
    case 'EMPLOYEE':
      return document.creatorId === user.id;
    case 'MANAGER':
      return document.creatorId === user.id || user.managedUserIds.includes(document.creatorId);
    case 'COMPANY_ADMIN':
      return user.companyId !== null && data.users[document.creatorId - 1]?.companyId === user.companyId;
  }
}

/** The CASL conditions of each role, one rule per condition of the example's rule (several rules are an OR). */
function caslConditions(role: RoleCase['role'], user: RuleUser): object[] {
  switch (role) {
    case 'EMPLOYEE':
      return [{ creatorId: user.id }];
    case 'MANAGER':
      return [{ creatorId: user.id }, { creatorId: { in: [...user.managedUserIds] } }];
    case 'COMPANY_ADMIN':
      return [{ creator: { is: { companyId: user.companyId } } }];
  }
}

type PageQuery = SelectQueryBuilder<ListFilterTables, 'documents', DocumentRow>;

/** The hand-written query of each role's page: what one would write without the rules. */
function handWrittenPage(db: Kysely<ListFilterTables>, role: RoleCase['role'], user: RuleUser, after: number): PageQuery {
  const documents = db.selectFrom('documents');
  const page = (query: PageQuery): PageQuery => query.where('documents.id', '>', after).orderBy('documents.id').limit(PAGE_SIZE);
  switch (role) {
    case 'EMPLOYEE':
      return page(documents.selectAll().where('creatorId', '=', user.id));
    case 'MANAGER':
      return page(documents.selectAll().where((eb) => eb('creatorId', '=', eb.fn.any(eb.val([user.id, ...user.managedUserIds])))));
    case 'COMPANY_ADMIN':
      return page(documents.innerJoin('users', 'users.id', 'documents.creatorId').selectAll('documents').where('users.companyId', '=', user.companyId));
  }
}

/** Loads a user with what the rules read, as the example app does (not timed). */
async function loadUser(database: ListFilterDatabase, userId: number, role: string): Promise<RuleUser> {
  const row = await database.kysely.selectFrom('users').select(['id', 'companyId']).where('id', '=', userId).executeTakeFirstOrThrow();
  const managed = await database.kysely.selectFrom('managers').select('managedId').where('managerId', '=', userId).orderBy('managedId').execute();
  return { id: row.id, roles: [role], companyId: row.companyId, managedUserIds: managed.map((m) => m.managedId) };
}

/** A page as compared: the columns in one order, whatever way fetched it. */
const normalized = (rows: readonly DocumentRow[]): DocumentRow[] => rows.map(({ id, title, content, creatorId }) => ({ id, title, content, creatorId }));

/** One node of an EXPLAIN (FORMAT JSON) plan: the fields read here. */
interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Index Name'?: string;
  readonly 'Relation Name'?: string;
  readonly Plans?: readonly PlanNode[];
}

/** Every scan of an EXPLAIN (FORMAT JSON) plan, outermost first. */
function scansOf(node: PlanNode): string[] {
  const index = node['Index Name'] === undefined ? '' : ` using ${node['Index Name']}`;
  const relation = node['Relation Name'] === undefined ? '' : ` on ${node['Relation Name']}`;
  const here = index === '' && relation === '' ? [] : [`${node['Node Type']}${index}${relation}`];
  const children = node.Plans ?? [];
  return [...here, ...children.flatMap(scansOf)];
}

/** EXPLAIN of one statement. */
async function explain(database: ListFilterDatabase, side: string, text: string, values: readonly unknown[]): Promise<ListFilterPlan> {
  const [row] = await database.query(`EXPLAIN (FORMAT JSON) ${text}`, values);
  const cell = row?.['QUERY PLAN'];
  const parsed = (typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan: PlanNode }[];
  const scans = scansOf((parsed[0] as { Plan: PlanNode }).Plan);
  const sequentialScans = scans.filter((scan) => scan.startsWith('Seq Scan')).map((scan) => scan.replace(/^Seq Scan on /, ''));
  return { side, scans, sequentialScans };
}

/** One role at one size: check every page of every way, count, explain, then time. */
async function measureCase(
  database: ListFilterDatabase,
  data: ListFilterData,
  tables: GrantTables,
  roleCase: RoleCase,
  { settings, log }: BenchContext,
): Promise<ListFilterCase> {
  const counter = new StatementCounter();
  const db = database.kysely.withPlugin(counter);
  const ownershipRules = kyselyOwnership(db, { tables: { document: 'documents', user: 'users' } });
  const prismaRules = prismaOwnership(database.prisma, { models: { document: 'document', user: 'user' } });
  const permissions = permissionsFromTables<RuleUser>(tables, { ownershipRules });
  let prismaQueries: { query: string; params: string }[] = [];
  database.prisma.$on('query', (event) => void prismaQueries.push({ query: event.query, params: event.params }));

  const user = await loadUser(database, roleCase.userId, roleCase.role);
  const selected = data.documents.filter((document) => selects(roleCase.role, user, data, document));
  const pageCount = Math.min(settings.listFilters.pages, Math.ceil(selected.length / PAGE_SIZE));
  const expectedPages = Array.from({ length: pageCount }, (_, i) => normalized(selected.slice(i * PAGE_SIZE, (i + 1) * PAGE_SIZE)));
  const cursors = expectedPages.map((_, i) => (i === 0 ? 0 : (expectedPages[i - 1]?.at(-1)?.id ?? 0)));
  const ability = createPrismaAbility(caslConditions(roleCase.role, user).map((conditions) => ({ action: 'read', subject: 'Document', conditions })));

  const ruleQuery = (after: number): PageQuery => {
    const permit = permissions.grantPermitSync({ user, resource: 'document', action: 'read' });
    return db.selectFrom('documents').selectAll().where(ownershipRules.where(permit)).where('id', '>', after).orderBy('id').limit(PAGE_SIZE);
  };
  const prismaPage = (where: object, after: number): Promise<DocumentRow[]> =>
    database.prisma.document.findMany({ where: { AND: [where, { id: { gt: after } }] }, orderBy: { id: 'asc' }, take: PAGE_SIZE });
  const compiledRule = new Map(cursors.map((after) => [after, ruleQuery(after).compile()]));
  const compiledHand = new Map(cursors.map((after) => [after, handWrittenPage(db, roleCase.role, user, after).compile()]));
  const pages: Record<SideKey, (after: number) => Promise<DocumentRow[]>> = {
    ruleKysely: (after) => ruleQuery(after).execute(),
    handWritten: (after) => handWrittenPage(db, roleCase.role, user, after).execute(),
    rulePrisma: (after) => prismaPage(prismaRules.where(permissions.grantPermitSync({ user, resource: 'document', action: 'read' })), after),
    casl: (after) => prismaPage(accessibleBy(ability, 'read').ofType('Document'), after),
    ruleCompiled: async (after) => (await db.executeQuery(compiledRule.get(after) as CompiledQuery<DocumentRow>)).rows,
    handCompiled: async (after) => (await db.executeQuery(compiledHand.get(after) as CompiledQuery<DocumentRow>)).rows,
  };

  // Every timed page of every way, against the data; the statements and the SQL of the first page.
  const mismatches: string[] = [];
  const statements = new Map<SideKey, number>();
  const prismaSql = new Map<SideKey, { query: string; params: string }>();
  for (const key of SIDE_KEYS) {
    for (const [i, after] of cursors.entries()) {
      counter.reset();
      prismaQueries = [];
      const rows = normalized(await pages[key](after));
      if (!isDeepStrictEqual(rows, expectedPages[i])) mismatches.push(`${LIST_FILTER_SIDES[key]} after id ${after}`);
      if (i > 0) continue;
      statements.set(key, key === 'rulePrisma' || key === 'casl' ? prismaQueries.length : counter.count);
      const sent = prismaQueries[0];
      if (sent !== undefined) prismaSql.set(key, sent);
    }
  }
  const firstPage = await ruleQuery(0).execute();
  counter.reset();
  await permissions.grantPermitSync({ user, resource: 'document', action: 'read' }).filterPick(firstPage);
  const filterPickStatements = counter.count;

  const plans: ListFilterPlan[] = [];
  for (const [key, compiled] of [
    ['ruleKysely', ruleQuery(0).compile()],
    ['handWritten', handWrittenPage(db, roleCase.role, user, 0).compile()],
  ] as const)
    plans.push(await explain(database, LIST_FILTER_SIDES[key], compiled.sql, compiled.parameters));
  for (const key of ['rulePrisma', 'casl'] as const) {
    const sent = prismaSql.get(key);
    if (sent !== undefined) plans.push(await explain(database, LIST_FILTER_SIDES[key], sent.query, JSON.parse(sent.params) as unknown[]));
  }

  const sides: TimedSide[] = SIDE_KEYS.map((key) => {
    let next = 0;
    return {
      name: LIST_FILTER_SIDES[key],
      run: async (iterations) => {
        for (let i = 0; i < iterations; i++) await pages[key](cursors[next++ % cursors.length] as number);
      },
    };
  });
  // Shuffled: the two connections (kysely's, Prisma's) each sit idle while the other is used, and the first page on a
  // connection after that measured ~15-25% slower; a fixed or rotated order would charge it to the same way each round.
  const times = await interleavedRounds(sides, settings.listFilters.comparison, undefined, { shuffle: new Random(data.documents.length) });
  const handMedian = times[SIDE_KEYS.indexOf('handWritten')]?.medianNs ?? Number.NaN;
  const sideResults = SIDE_KEYS.map((key, i) => {
    const { medianNs, p95Ns, p99Ns } = times[i] as { medianNs: number; p95Ns: number; p99Ns: number };
    return {
      side: LIST_FILTER_SIDES[key],
      statementsPerPage: statements.get(key) ?? Number.NaN,
      medianNs,
      p95Ns,
      p99Ns,
      ratioToHandWritten: medianNs / handMedian,
    };
  });
  const rule = sideResults[0] as ListFilterSideResult;
  log(
    `  ${data.documents.length} documents, ${roleCase.role}: rule ${formatNs(rule.medianNs)} ` +
      `(${formatRatio(rule.ratioToHandWritten)} hand-written), ${mismatches.length} mismatches`,
  );
  return {
    documents: data.documents.length,
    users: data.users.length,
    role: roleCase.role,
    rule: roleCase.rule,
    userId: user.id,
    selected: selected.length,
    pages: pageCount,
    identical: mismatches.length === 0 && pageCount > 0,
    mismatches,
    sides: sideResults,
    filterPickStatements,
    plans,
  };
}

/** Every role at every size, each size on a database of its own. */
async function run(context: BenchContext): Promise<ListFiltersResult | Skipped> {
  const { listFilters } = context.settings;
  const server = listFilters.database === 'server' ? findPostgresServer() : undefined;
  if (server !== undefined && 'skipped' in server) return server;
  const tables = exampleTables();
  const measuredAt = new Date().toISOString();
  try {
    return await withRunFolder('list-filters', async (dir) => {
      const PrismaClient = await generateListFilterPrismaClient(join(dir, 'prisma'));
      const cases: ListFilterCase[] = [];
      let description = '';
      for (const documentCount of listFilters.documentCounts) {
        const data = createListFilterData(documentCount, listFilters.documentsPerUser);
        const database = server === undefined ? await openPgliteDatabase(data, PrismaClient) : await openServerDatabase(server.url, data, PrismaClient);
        description = database.description;
        try {
          for (const roleCase of LIST_FILTER_ROLES) cases.push(await measureCase(database, data, tables, roleCase, context));
        } finally {
          await database.close();
        }
      }
      return { measuredAt, database: description, pageSize: PAGE_SIZE, comparison: listFilters.comparison, cases };
    });
  } finally {
    server?.stop();
  }
}

const sizeLabel = (count: number): string => count.toLocaleString('en-US');

/** The tables: per size, each role's ways; then the plans; then what was checked. */
function sections(result: ListFiltersResult | Skipped | undefined): string[] {
  if (result === undefined) return [];
  if ('skipped' in result) return [`List filters of ownership rules: not measured (${result.skipped}).`];
  const sizes = [...new Set(result.cases.map((c) => c.documents))];
  const timeTables = sizes.map((size) => {
    const cases = result.cases.filter((c) => c.documents === size);
    const rows = cases.flatMap((c) =>
      c.sides.map((side) => [
        `${c.role} (${c.rule})`,
        side.side,
        String(side.statementsPerPage),
        formatNs(side.medianNs),
        formatNs(side.p95Ns),
        formatNs(side.p99Ns),
        formatRatio(side.ratioToHandWritten),
      ]),
    );
    const first = cases[0];
    return (
      `List filters of ownership rules — a page of ${result.pageSize} by keyset cursor from ${sizeLabel(size)} documents ` +
      `(${sizeLabel(first?.users ?? 0)} users) on ${result.database}, measured ${result.measuredAt}; ` +
      `per page, over ${result.comparison.rounds} interleaved rounds ` +
      `of one page per way (after ${result.comparison.warmupRounds} warm-up rounds), the pages of each role cycled:\n\n` +
      table(['role (rule)', 'way', 'statements per page', 'median', 'p95', 'p99', '÷ hand-written'], rows)
    );
  });
  const planRows = result.cases.flatMap((c) =>
    c.plans.map((plan) => [
      sizeLabel(c.documents),
      c.role,
      plan.side,
      plan.scans.join('; '),
      plan.sequentialScans.length === 0 ? 'none' : plan.sequentialScans.join(', '),
    ]),
  );
  const checked = result.cases.map(
    (c) =>
      `${c.role} at ${sizeLabel(c.documents)}: ${c.selected} documents selected, ${c.pages} page(s) timed, ` +
      `${c.identical ? 'every way returned exactly the expected rows' : `MISMATCHES: ${c.mismatches.join('; ')}`}; ` +
      `filterPick of the page adds ${c.filterPickStatements} statement(s)`,
  );
  return [
    ...timeTables,
    `EXPLAIN of each way's first page (indexes: documents_creator on documents.creatorId, users_company on ` +
      `users.companyId, managers_manager on managers.managerId, and the primary keys):\n\n` +
      table(['documents', 'role', 'way', 'scans (outermost first)', 'sequential scans'], planRows),
    `Checked before timing, against pages computed from the data: ${checked.join('. ')}.`,
  ];
}

/** The targets: the rule's page within 1.1× of the hand-written one, and one statement per page. */
function targets(result: ListFiltersResult | Skipped | undefined): TargetVerdict[] {
  if (result === undefined || 'skipped' in result) return [];
  const rules = result.cases.map((c) => ({ c, side: c.sides.find((side) => side.side === LIST_FILTER_SIDES.ruleKysely) as ListFilterSideResult }));
  const ratios = rules.map(({ c, side }) => `${c.role} ${sizeLabel(c.documents)}: ${formatRatio(side.ratioToHandWritten)}`);
  const correct = result.cases.every((c) => c.identical);
  return [
    {
      target: `A page of ${result.pageSize} with the rule's filter (kyselyOwnership) within 1.1× of the hand-written query, every role and size`,
      measured: `${ratios.join(', ')}; ${correct ? 'rows identical' : 'ROWS DIFFER'}`,
      met: correct && rules.every(({ side }) => side.ratioToHandWritten <= 1.1),
    },
    {
      target: `A page of ${result.pageSize} with the rule's filter: 1 SQL statement (grantPermitSync + the page query)`,
      measured: rules.map(({ c, side }) => `${c.role} ${sizeLabel(c.documents)}: ${side.statementsPerPage}`).join(', '),
      met: rules.every(({ side }) => side.statementsPerPage === 1),
    },
  ];
}

/** List filters of ownership rules against hand-written SQL and CASL's accessibleBy. */
export const listFiltersBenchmark: Benchmark<ListFiltersResult | Skipped> = {
  title: 'list filters of ownership rules',
  run,
  sections,
  targets,
};
