#!/usr/bin/env node
/**
 * `npx typed-permissions …`: the command of the runtime package. `serve` (the decision service) is the runtime's
 * own and needs only Fastify besides it. Everything else is the compiler, which lives in the package
 * typed-permissions-cli (so that an application that only runs permissions installs no TypeScript, ts-morph or
 * prettier); this starts it, or says how to install it.
 */
import { packageVersion } from '../internal/package-version.js';

const CLI_PACKAGE = 'typed-permissions-cli';
/** What `serve` needs besides the runtime. */
const SERVICE_PACKAGES = ['fastify', '@fastify/rate-limit', '@fastify/swagger', 'prom-client'];

interface CliModule {
  runMain(argv: readonly string[]): Promise<void>;
}

interface ServeModule {
  runServe(argv: readonly string[]): Promise<void>;
}

/** Whether `error` is a failed import of `name` (not of something that name imports in turn). */
function isMissing(error: unknown, names: readonly string[]): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ERR_MODULE_NOT_FOUND' && names.some((name) => String((error as Error).message).includes(`'${name}'`));
}

/** How to install the compiler, for a command that needs it. */
const INSTALL_CLI = `Install it as a development dependency, of the same version as typed-permissions:\n  npm install --save-dev ${CLI_PACKAGE}`;

/** What the runtime alone runs, for `--help` without the compiler. */
const RUNTIME_USAGE = `Usage:
  typed-permissions serve (--policy <file> | --policy-url <url> | --database-url <url>) [--token <t>]…   (typed-permissions serve --help)
  typed-permissions --version | --help

Every other command (compile, test, explain, diff, render, policy, tenant, replay) is the compiler's, in the package
${CLI_PACKAGE}, which is not installed here. ${INSTALL_CLI}`;

/** The compiler's command line, or undefined when typed-permissions-cli is not installed. */
async function compilerCli(): Promise<CliModule | undefined> {
  try {
    // A specifier in a variable: the runtime does not depend on the compiler, not even for its types.
    return (await import(CLI_PACKAGE)) as CliModule;
  } catch (error) {
    if (!isMissing(error, [CLI_PACKAGE])) throw error;
    return undefined;
  }
}

const [command, ...rest] = process.argv.slice(2);
if (command === '--version' || command === '-v') {
  console.log(`typed-permissions ${packageVersion(import.meta.url, 'typed-permissions') ?? '(version unknown)'}`);
  const cli = await compilerCli();
  if (cli === undefined) console.log(`${CLI_PACKAGE} is not installed`);
  else await cli.runMain(['--version']);
} else if ((command === '--help' || command === '-h') && (await compilerCli()) === undefined) {
  console.log(RUNTIME_USAGE);
} else if (command === 'serve') {
  let service: ServeModule | undefined;
  try {
    service = await import('../service/serve-command.js');
  } catch (error) {
    if (!isMissing(error, SERVICE_PACKAGES)) throw error;
    console.error(
      `typed-permissions serve: the decision service runs on ${SERVICE_PACKAGES.join(', ')}, which are not all installed here.\n` +
        `Install them beside typed-permissions:\n  npm install ${SERVICE_PACKAGES.join(' ')}`,
    );
    process.exitCode = 2;
  }
  if (service !== undefined) await service.runServe(rest);
} else {
  const cli = await compilerCli();
  if (cli === undefined) {
    console.error(`typed-permissions: the compiler is in the package ${CLI_PACKAGE}, which is not installed here.\n${INSTALL_CLI}`);
    process.exitCode = 2;
  } else await cli.runMain(process.argv.slice(2));
}
