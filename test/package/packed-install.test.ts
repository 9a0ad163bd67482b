/**
 * What users install is the packed tarball, not this checkout. This installs both packages, packed the way a release
 * would (`npm pack --workspaces`: prepack builds them), into a throwaway project outside the repository, as a
 * newcomer would: first the runtime alone (small, no toolchain, a grant from ESM and from `require`, the fastify entry
 * needing fastify-plugin which no other entry loads; the decision service with fastify and without the compiler; a
 * route guarded by the fastify entry), then the compiler as a dev dependency (its own definitions compiled with the
 * installed command, a strict type-check that accepts a usage file and rejects a wrong action — with TypeScript 6 and
 * with TypeScript 7 —, and the compiled usage run with node). What the tarballs hold is checked in
 * packed-contents.test.ts, a NestJS GraphQL app on them in packed-nest-graphql.test.ts: jest runs the three on both
 * workers.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot } from '../compiler/helpers.js';
import { TSC_7 } from '../compiler/typescript-cli.js';
import { NPM, ok, run, sharedPackedWorkspaces, tarballPath, type Packed } from './throwaway-project.js';

function folderBytes(path: string): number {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) total += folderBytes(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

describe('the packed tarballs, installed outside the repository', () => {
  let packs = '';
  let project = '';
  let packed: Packed[] = [];
  const tarball = (name: string) => tarballPath(packed, packs, name);

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'typed-permissions-newcomer-'));
    ({ folder: packs, packed } = await sharedPackedWorkspaces());
  }, 330_000);

  afterAll(() => {
    if (project !== '') rmSync(project, { recursive: true, force: true });
  });

  it('the runtime alone installs small, without the toolchain or zod, and grants from ESM and from require', () => {
    ok(run(NPM, ['init', '-y'], project));
    ok(run(NPM, ['pkg', 'set', 'type=module'], project));
    ok(run(NPM, ['install', tarball('typed-permissions')], project));
    const modules = join(project, 'node_modules');
    expect(
      readdirSync(modules)
        .filter((name) => !name.startsWith('.'))
        .sort(),
    ).toEqual(['leven', 'path-to-regexp', 'typed-permissions']);
    for (const toolchain of ['typescript', 'ts-morph', 'prettier', '@ts-morph']) expect(existsSync(join(modules, toolchain))).toBe(false);
    expect(folderBytes(modules)).toBeLessThanOrEqual(2 * 1024 * 1024);
    console.info(`runtime-only install: ${(folderBytes(modules) / 1024).toFixed(0)} KiB of node_modules`);

    // Building definitions at run time validates them with zod, an optional peer: without it, build() says what to install.
    writeFileSync(
      join(project, 'no-zod.mjs'),
      `import { Permissions } from 'typed-permissions';\n` +
        `try { new Permissions().addPermissions([{ roles: 'READER', resource: 'article', grant: ['read'] }]).build(); } ` +
        `catch (error) { console.log(JSON.stringify([error.name, error.code, error.message])); }\n`,
    );
    expect(JSON.parse(ok(run(process.execPath, ['no-zod.mjs'], project)))).toEqual([
      'PermissionsUsageError',
      'PERMISSIONS_USAGE',
      'Validating definitions at run time needs zod, which is not installed: run `npm install zod` (zod 4). An application that only loads ' +
        'compiled tables (createPermissions from generated/, or permissionsFromTables) does not need it.',
    ]);
    ok(run(NPM, ['install', 'zod@^4'], project));

    const definitions = "[{ roles: 'READER', resource: 'article', grant: { 'read:any': ['*', '!draft'] } }]";
    writeFileSync(
      join(project, 'grant.mjs'),
      `import { Permissions } from 'typed-permissions';\n` +
        `const permissions = new Permissions().addPermissions(${definitions}).build();\n` +
        `const permit = await permissions.grantPermit({ user: { id: 1, roles: ['READER'] }, resource: 'article', action: 'read' });\n` +
        `console.log(JSON.stringify([permit.granted, await permit.pick({ id: 1, title: 't', draft: 'd' })]));\n`,
    );
    writeFileSync(
      join(project, 'grant.cjs'),
      `const { Permissions } = require('typed-permissions');\n` +
        `const permissions = new Permissions().addPermissions(${definitions}).build();\n` +
        `const permit = permissions.grantPermitSync({ user: { id: 1, roles: ['READER'] }, resource: 'article', action: 'read' });\n` +
        `console.log(JSON.stringify([permit.granted, permit.pickSync({ id: 1, title: 't', draft: 'd' })]));\n`,
    );
    for (const file of ['grant.mjs', 'grant.cjs']) expect(JSON.parse(ok(run(process.execPath, [file], project)))).toEqual([true, { id: 1, title: 't' }]);

    // Each entry is a module of its own over shared chunks: a class is the same whatever entry it comes through, so an
    // error thrown inside one entry is an instance of the class another entry exports.
    writeFileSync(
      join(project, 'one-class.mjs'),
      `import { PermissionsUsageError } from 'typed-permissions';\n` +
        `import { postgresPolicySource } from 'typed-permissions/live';\n` +
        `import { checkedOwnershipIds } from 'typed-permissions/ownership';\n` +
        `const thrown = [];\n` +
        `try { postgresPolicySource({}); } catch (error) { thrown.push(error); }\n` +
        `try { checkedOwnershipIds('10'); } catch (error) { thrown.push(error); }\n` +
        `console.log(JSON.stringify(thrown.map((error) => [error instanceof PermissionsUsageError, error.name])));\n`,
    );
    expect(JSON.parse(ok(run(process.execPath, ['one-class.mjs'], project)))).toEqual([
      [true, 'PermissionsUsageError'],
      [true, 'PermissionsUsageError'],
    ]);

    // The live entry loads without node-postgres; only the PostgreSQL source needs it, and says so through onError.
    writeFileSync(
      join(project, 'live-without-pg.mjs'),
      `import { Permissions } from 'typed-permissions';\n` +
        `import { postgresPolicySource } from 'typed-permissions/live';\n` +
        `const permissions = new Permissions().addPermissions(${definitions}).build();\n` +
        `const errors = [];\n` +
        `const unreachable = postgresPolicySource({ connectionString: 'postgres://127.0.0.1:1/none' });\n` +
        `const live = await permissions.follow(unreachable, { onError: (e) => errors.push(e.message) });\n` +
        `await live.close();\n` +
        `console.log(JSON.stringify(errors));\n`,
    );
    expect(JSON.parse(ok(run(process.execPath, ['live-without-pg.mjs'], project)))).toEqual([
      'The PostgreSQL policy store needs node-postgres, which is not installed: run `npm install pg`.',
    ]);

    // The hono entry is the only one that loads hono: the kit it is built on loads without it.
    writeFileSync(
      join(project, 'hono-without-hono.mjs'),
      `await import('typed-permissions/integration');\n` +
        `const failed = await import('typed-permissions/hono').then(() => 'loaded', (error) => [error.code, /'hono'/.test(error.message)]);\n` +
        `console.log(JSON.stringify(failed));\n`,
    );
    expect(JSON.parse(ok(run(process.execPath, ['hono-without-hono.mjs'], project)))).toEqual(['ERR_MODULE_NOT_FOUND', true]);
    // The fastify entry needs fastify-plugin, which nothing else loads: the other entries load without it.
    writeFileSync(
      join(project, 'fastify-without-plugin.mjs'),
      `import 'typed-permissions';\nimport 'typed-permissions/express';\nimport 'typed-permissions/integration';\n` +
        `try { await import('typed-permissions/fastify'); console.log('"loaded"'); } ` +
        `catch (error) { console.log(JSON.stringify([error.code, error.message.includes("'fastify-plugin'")])); }\n`,
    );
    expect(JSON.parse(ok(run(process.execPath, ['fastify-without-plugin.mjs'], project)))).toEqual(['ERR_MODULE_NOT_FOUND', true]);

    // The ownership entry and the Prisma adapter load without an ORM (nothing of Prisma); the kysely adapter needs
    // kysely (it builds a rule's condition once, from kysely's node classes) and the Drizzle adapter drizzle-orm.
    writeFileSync(
      join(project, 'ownership-without-orm.mjs'),
      `import { sqlOwnership } from 'typed-permissions/ownership';\n` +
        `const kysely = await import('typed-permissions/kysely').then(() => 'loaded', (error) => [error.code, /'kysely'/.test(error.message)]);\n` +
        `const { prismaOwnership } = await import('typed-permissions/prisma');\n` +
        `const ran = [];\n` +
        `const query = async (text, values) => { ran.push([text, values]); return [{ id: 1 }]; };\n` +
        `const source = sqlOwnership({ tables: { document: 'documents' }, query });\n` +
        `const context = { resource: 'document', relations: new Map(), userAttributes: { id: 'number' } };\n` +
        `const owned = await source.ownedAmong({ scope: { attribute: 'creatorId', equals: { user: 'id' } }, context, user: { id: 3 } }, [1, 2]);\n` +
        `const drizzle = await import('typed-permissions/drizzle').then(() => 'loaded', (error) => [error.code, /'drizzle-orm'/.test(error.message)]);\n` +
        `console.log(JSON.stringify([kysely, typeof prismaOwnership, owned, ran, drizzle]));\n`,
    );
    expect(JSON.parse(ok(run(process.execPath, ['ownership-without-orm.mjs'], project)))).toEqual([
      ['ERR_MODULE_NOT_FOUND', true],
      'function',
      [1],
      [['SELECT "documents"."id" AS "id" FROM "documents" WHERE "documents"."id" = ANY($1) AND ("documents"."creatorId" = $2)', [[1, 2], 3]]],
      ['ERR_MODULE_NOT_FOUND', true],
    ]);

    const withoutCompiler = run(NPM, ['exec', '--no', '--', 'typed-permissions', 'compile'], project);
    expect(withoutCompiler.status).toBe(2);
    expect(withoutCompiler.stderr).toContain('typed-permissions: the compiler is in the package typed-permissions-cli, which is not installed here.');
    // The version and the usage answer without the compiler, saying where its commands are.
    const version = JSON.parse(readFileSync(join(repoRoot, 'runtime', 'package.json'), 'utf8')) as { version: string };
    expect(ok(run(NPM, ['exec', '--no', '--', 'typed-permissions', '--version'], project))).toBe(
      `typed-permissions ${version.version}\ntyped-permissions-cli is not installed\n`,
    );
    expect(ok(run(NPM, ['exec', '--no', '--', 'typed-permissions', '--help'], project))).toContain(
      "Every other command (compile, test, explain, diff, render, policy, tenant, replay) is the compiler's, in the package\n" +
        'typed-permissions-cli, which is not installed here.',
    );
  });

  it('the browser client from the tarball answers from a slice, and bundles for the browser without Node built-ins or eval', async () => {
    writeFileSync(
      join(project, 'client.mjs'),
      `import { Permissions } from 'typed-permissions';\n` +
        `import { createClient } from 'typed-permissions/client';\n` +
        `const permissions = new Permissions().addPermissions([{ roles: 'READER', resource: 'article', grant: { 'read:any': ['id', 'title'] } }]).build();\n` +
        `const client = createClient(JSON.parse(JSON.stringify(permissions.sliceFor({ id: 1, roles: ['READER'] }))));\n` +
        `const picked = client.pick('read', 'article', { id: 1, title: 't', body: 'b' });\n` +
        `console.log(JSON.stringify([client.can('read', 'article'), client.can('delete', 'article'), picked]));\n`,
    );
    expect(JSON.parse(ok(run(process.execPath, ['client.mjs'], project)))).toEqual([true, false, { id: 1, title: 't' }]);
    // What a bundler makes of the installed entry for a browser page.
    writeFileSync(join(project, 'page.mjs'), `import { createClient } from 'typed-permissions/client';\nexport const make = (slice) => createClient(slice);\n`);
    const { build } = await import('esbuild');
    const bundled = await build({
      entryPoints: [join(project, 'page.mjs')],
      absWorkingDir: project,
      bundle: true,
      minify: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      logLevel: 'silent',
    });
    const code = (bundled.outputFiles[0] as { text: string }).text;
    expect(code).not.toMatch(/new Function|\beval\(|require\(|node:|zod/);
    expect(gzipSync(Buffer.from(code), { level: 9 }).length).toBeLessThanOrEqual(6 * 1024);
  });

  it('the decision service from the tarball: typed-permissions serve runs on the runtime and fastify, without the compiler', () => {
    expect(existsSync(join(project, 'node_modules', 'typed-permissions-cli'))).toBe(false);
    const withoutFastify = run(NPM, ['exec', '--no', '--', 'typed-permissions', 'serve', '--policy', 'policy.json'], project);
    expect([withoutFastify.status, withoutFastify.stderr]).toEqual([
      2,
      'typed-permissions serve: the decision service runs on fastify, @fastify/rate-limit, @fastify/swagger, prom-client, which are not all installed here.\n' +
        'Install them beside typed-permissions:\n  npm install fastify @fastify/rate-limit @fastify/swagger prom-client\n',
    ]);
    ok(run(NPM, ['install', 'fastify@^5', '@fastify/rate-limit@^11', '@fastify/swagger@^9', 'prom-client@^15'], project));
    writeFileSync(
      join(project, 'policy.mjs'),
      `import { writeFileSync } from 'node:fs';
import { Permissions } from 'typed-permissions';
import { policyBundleOf } from 'typed-permissions/internal';
const permissions = new Permissions().addPermissions([{ roles: ['READER'], resource: 'article', grant: { 'read:any': ['id', 'title'] } }]).build();
writeFileSync('policy.json', JSON.stringify(policyBundleOf(permissions.tables)));
`,
    );
    ok(run(process.execPath, ['policy.mjs'], project));
    // The installed command, as a process: it listens, answers a check with a token, and stops on SIGTERM with exit 0.
    writeFileSync(
      join(project, 'serve.mjs'),
      `import { spawn } from 'node:child_process';
const token = 'packed-install-token-0123456789';
const command = ['node_modules/typed-permissions/dist/cli/command.js', 'serve', '--policy', 'policy.json', '--port', '0'];
const child = spawn(process.execPath, command, { env: { ...process.env, TYPED_PERMISSIONS_TOKENS: token }, stdio: ['ignore', 'pipe', 'inherit'] });
let out = '';
const address = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('not listening: ' + out)), 30000);
  child.stdout.on('data', (chunk) => {
    out += chunk;
    const found = /listening on (http:\\/\\/\\S+)/.exec(out);
    if (found) {
      clearTimeout(timer);
      resolve(found[1]);
    }
  });
});
const exited = new Promise((resolve) => child.once('exit', resolve));
const checks = [{ user: { id: 1, roles: ['READER'] }, resource: 'article', action: 'read' }];
const check = (authorization) =>
  fetch(address + '/v1/check', { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ checks }) });
const granted = await check('Bearer ' + token);
const refused = await check('');
const answer = (await granted.json()).answers[0];
child.kill('SIGTERM');
const exit = await exited;
console.log(JSON.stringify({ status: granted.status, granted: answer.granted, anyAttributes: answer.anyAttributes, refused: refused.status, exit }));
`,
    );
    expect(JSON.parse(ok(run(process.execPath, ['serve.mjs'], project)))).toEqual({
      status: 200,
      granted: true,
      anyAttributes: ['id', 'title'],
      refused: 401,
      exit: 0,
    });
  });

  it('the fastify entry from the tarball guards a route on a real server, and refuses an ambiguous route at start', () => {
    // fastify is installed (the decision service above), and fastify-plugin with its plugins: as a user's direct dependency now.
    ok(run(NPM, ['install', 'fastify-plugin@^6'], project));
    writeFileSync(
      join(project, 'fastify-guarded.mjs'),
      `import Fastify from 'fastify';
import { Permissions } from 'typed-permissions';
import { createPermitHook, fastifyPermissions, permitOf } from 'typed-permissions/fastify';
const permissions = new Permissions({ resourceIdTypes: { article: 'number' } })
  .addPermissions([{ roles: ['READER'], resource: 'article', grant: { 'read:any': ['id', 'title'] } }])
  .build();
const permit = createPermitHook({ permissions, resource: 'article', getUser: (request) => ({ id: 1, roles: [String(request.headers['x-role'])] }) });
const app = Fastify();
await app.register(fastifyPermissions);
app.get('/articles/:id', { preHandler: permit({ action: 'read' }) }, (request, reply) =>
  reply.send(permitOf(request).pickSync({ id: permitOf(request).resourceId, title: 't', body: 'b' })));
const url = await app.listen({ port: 0, host: '127.0.0.1' });
const ask = async (path, role) => {
  const response = await fetch(url + path, { headers: { 'x-role': role, connection: 'close' } });
  return [response.status, await response.json()];
};
const answers = [await ask('/articles/7', 'READER'), await ask('/articles/7', 'NOBODY'), await ask('/articles/x', 'READER')];
await app.close();
const ambiguous = Fastify();
await ambiguous.register(fastifyPermissions);
ambiguous.get('/users/:id/articles/:articleId', { preHandler: permit({ action: 'read' }) }, (request, reply) => reply.send('never'));
const refusal = await ambiguous.ready().then(() => 'started', (error) => error.name);
await ambiguous.close();
console.log(JSON.stringify({ answers, refusal }));
`,
    );
    expect(JSON.parse(ok(run(process.execPath, ['fastify-guarded.mjs'], project)))).toEqual({
      answers: [
        [200, { id: 7, title: 't' }],
        [403, { statusCode: 403, error: 'Forbidden', message: 'read on article is not granted', reason: 'no-grant' }],
        [
          400,
          {
            statusCode: 400,
            error: 'Bad Request',
            message: '"x" is not an id of "article": its ids are an integer written in decimal without leading zeros, within ±9007199254740991 (such as 42).',
          },
        ],
      ],
      refusal: 'PermissionsUsageError',
    });
  });

  it(
    'with the compiler as a dev dependency, the installed command compiles, ' + 'tsc --strict accepts a usage and rejects a wrong action, and node runs it',
    () => {
      ok(run(NPM, ['install', '--save-dev', tarball('typed-permissions-cli'), 'typescript@~6.0.3'], project));
      mkdirSync(join(project, 'definitions'));
      writeFileSync(
        join(project, 'definitions', 'article.permissions.json'),
        JSON.stringify({
          definitions: [
            {
              roles: ['AUTHOR'],
              resource: 'article',
              possession: 'own',
              grant: { read: ['*'], publish: ['*'], 'list:any': ['id', 'title'] },
              isOwner: 'isAuthor',
              listOwned: 'listAuthored',
            },
            { roles: ['EDITOR'], resource: 'article', grant: ['read:any', 'publish:any'] },
          ],
        }),
      );
      writeFileSync(
        join(project, 'definitions', 'article.resource.json'),
        JSON.stringify({ resource: 'article', idType: 'number', attributes: ['id', 'title', 'body', 'authorId'] }),
      );
      expect(ok(run(NPM, ['exec', '--no', '--', 'typed-permissions', 'compile', 'definitions', '--out', 'generated'], project))).toMatch(
        /^typed-permissions: wrote 11 files to generated \(2 roles, 1 resource, 6 actions, 5 grants\)/,
      );
      const versions = ['runtime', 'compiler'].map(
        (folder) => (JSON.parse(readFileSync(join(repoRoot, folder, 'package.json'), 'utf8')) as { version: string }).version,
      );
      expect(ok(run(NPM, ['exec', '--no', '--', 'typed-permissions', '--version'], project))).toBe(
        `typed-permissions ${versions[0]}\ntyped-permissions-cli ${versions[1]}\n`,
      );
      // A definitions file in TypeScript: the installed compiler loads TypeScript (its own dependency) to read it.
      mkdirSync(join(project, 'ts-definitions'));
      writeFileSync(
        join(project, 'ts-definitions', 'audit.permissions.ts'),
        `export default [{ roles: ['AUDITOR'], resource: 'report', grant: ['read:any'] }];\n`,
      );
      const explained = ok(
        run(
          NPM,
          ['exec', '--no', '--', 'typed-permissions', 'explain', 'ts-definitions', '--roles', 'AUDITOR', '--resource', 'report', '--action', 'read'],
          project,
        ),
      );
      expect(explained).toBe('read on report for roles AUDITOR: GRANTED\n  - AUDITOR: any, attributes *\n      from audit.permissions.ts #0 as any\n');

      mkdirSync(join(project, 'src'));
      writeFileSync(
        join(project, 'src', 'app.ts'),
        `import { createPermissions, type PermissionsOwnershipService } from '../generated/index.js';

interface AppUser {
  readonly id: number;
  readonly roles: readonly string[];
}
const articles = [
  { id: 1, title: 'One', body: 'b1', authorId: 7 },
  { id: 2, title: 'Two', body: 'b2', authorId: 8 },
];
class ArticleOwnership implements PermissionsOwnershipService<AppUser> {
  isAuthor({ user, resourceId }: { readonly user: AppUser; readonly resourceId: number }): boolean {
    return articles.some((article) => article.id === resourceId && article.authorId === user.id);
  }
  listAuthored({ user }: { readonly user: AppUser }): readonly number[] {
    return articles.filter((article) => article.authorId === user.id).map((article) => article.id);
  }
}
const permissions = createPermissions<AppUser>({ ownership: new ArticleOwnership() });
const author: AppUser = { id: 7, roles: ['AUTHOR'] };
const own = await permissions.grantPermit({ user: author, resource: 'article', action: 'publish', resourceId: 1 });
const other = await permissions.grantPermit({ user: author, resource: 'article', action: 'publish', resourceId: 2 });
const list = await permissions.grantPermit({ user: author, resource: 'article', action: 'list' });
console.log(JSON.stringify({ own: own.granted, other: other.granted, list: await list.filterPick(articles) }));
`,
      );
      writeFileSync(
        join(project, 'src', 'wrong.ts'),
        `import { createPermissions } from '../generated/index.js';
declare const permissions: ReturnType<typeof createPermissions>;
export const permit = permissions.grantPermit({ user: { id: 1, roles: ['AUTHOR'] }, resource: 'article', action: 'delete' });
`,
      );
      // A CommonJS module: TypeScript compiles the import to require(), which Node 20.19+ runs on the ESM package.
      writeFileSync(
        join(project, 'src', 'consumer.cts'),
        `import { Permissions } from 'typed-permissions';\nexport const built: boolean = new Permissions().addPermissions([]).build().built;\n`,
      );
      const compilerOptions = {
        strict: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        rootDir: '.',
        outDir: 'out',
        skipLibCheck: false,
        types: [],
      };
      writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['src/app.ts', 'src/consumer.cts', 'generated'] }));
      writeFileSync(
        join(project, 'tsconfig.wrong.json'),
        JSON.stringify({ compilerOptions: { ...compilerOptions, noEmit: true }, include: ['src/wrong.ts', 'generated'] }),
      );

      const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
      ok(run(process.execPath, [tsc, '-p', 'tsconfig.json'], project));
      const wrong = run(process.execPath, [tsc, '-p', 'tsconfig.wrong.json'], project);
      expect(wrong.status).toBe(2);
      expect(wrong.stdout).toContain(`src/wrong.ts(3,106): error TS2322: Type '"delete"' is not assignable to type '"list" | "publish" | "read"'.`);

      expect(JSON.parse(ok(run(process.execPath, ['out/src/app.js'], project)))).toEqual({
        own: true,
        other: false,
        list: [
          { id: 1, title: 'One' },
          { id: 2, title: 'Two' },
        ],
      });
      expect(ok(run(process.execPath, ['-e', "console.log(require('./out/src/consumer.cjs').built)"], project)).trim()).toBe('true');
    },
  );

  it('TypeScript 7 type-checks the same strict consumer of the packed declarations, and rejects the same wrong action', () => {
    // What `npm install typescript` installs; the project's own TypeScript is 6 (above). Checked without emitting.
    expect(ok(run(process.execPath, [TSC_7, '--version'], project))).toMatch(/^Version 7\./);
    const accepted = run(process.execPath, [TSC_7, '-p', 'tsconfig.json', '--noEmit'], project);
    expect({ status: accepted.status, output: `${accepted.stdout}${accepted.stderr}` }).toEqual({ status: 0, output: '' });
    const wrong = run(process.execPath, [TSC_7, '-p', 'tsconfig.wrong.json'], project);
    expect({ status: wrong.status, output: `${wrong.stdout}${wrong.stderr}` }).toEqual({
      status: 1,
      output: `src/wrong.ts(3,106): error TS2322: Type '"delete"' is not assignable to type '"list" | "publish" | "read"'.\n`,
    });
  });

  it('an app on the installed packages follows the policy.json the installed compiler writes, and takes a recompiled one', () => {
    writeFileSync(
      join(project, 'follow.mjs'),
      `import { readFileSync } from 'node:fs';
import { permissionsFromTables } from 'typed-permissions';
import { filePolicySource } from 'typed-permissions/live';
import { execFileSync } from 'node:child_process';
const ownership = { isAuthor: () => false, listAuthored: () => [] };
const compiled = JSON.parse(readFileSync('generated/policy.json', 'utf8'));
const permissions = permissionsFromTables(compiled, { ownership });
const changes = [];
const live = await permissions.follow(filePolicySource('generated/policy.json', { pollIntervalMs: 20 }), { onChange: ({ version }) => changes.push(version) });
const editor = { id: 1, roles: ['EDITOR'] };
const before = (await permissions.grantPermit({ user: editor, resource: 'article', action: 'list' })).granted;
const file = 'definitions/article.permissions.json';
const definitions = JSON.parse(readFileSync(file, 'utf8'));
definitions.definitions[1].grant.push('list:any');
execFileSync('node', ['-e', 'require("fs").writeFileSync(process.argv[1], process.argv[2])', file, JSON.stringify(definitions)]);
execFileSync('npm', ['exec', '--no', '--', 'typed-permissions', 'compile', 'definitions', '--out', 'generated'], { stdio: 'ignore' });
const recompiled = JSON.parse(readFileSync('generated/policy.json', 'utf8'));
const deadline = Date.now() + 20_000;
while (permissions.policyVersion !== recompiled.version && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
const after = (await permissions.grantPermit({ user: editor, resource: 'article', action: 'list' })).granted;
await live.close();
const adopted = changes.map((version) => version === recompiled.version);
console.log(JSON.stringify({ before, after, changes: adopted, differs: compiled.version !== recompiled.version }));
`,
    );
    expect(JSON.parse(ok(run(process.execPath, ['follow.mjs'], project)))).toEqual({ before: false, after: true, changes: [true], differs: true });
  });
});
