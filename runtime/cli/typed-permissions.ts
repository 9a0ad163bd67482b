#!/usr/bin/env node
/**
 * `npx typed-permissions …`: the command of the runtime package. The compiler itself lives in the
 * package typed-permissions-cli (so that an application that only runs permissions installs no
 * TypeScript, ts-morph or prettier); this starts it, or says how to install it.
 */
const CLI_PACKAGE = 'typed-permissions-cli';

interface CliModule {
  runMain(argv: readonly string[]): Promise<void>;
}

let cli: CliModule | undefined;
try {
  // A specifier in a variable: the runtime does not depend on the compiler, not even for its types.
  cli = (await import(CLI_PACKAGE)) as CliModule;
} catch (error) {
  const code = (error as { code?: unknown }).code;
  if (code !== 'ERR_MODULE_NOT_FOUND' || !String((error as Error).message).includes(`'${CLI_PACKAGE}'`)) throw error;
  console.error(
    `typed-permissions: the compiler is in the package ${CLI_PACKAGE}, which is not installed here.\n` +
      `Install it as a development dependency, of the same version as typed-permissions:\n  npm install --save-dev ${CLI_PACKAGE}`,
  );
  process.exitCode = 2;
}
if (cli !== undefined) await cli.runMain(process.argv.slice(2));
