#!/usr/bin/env node
/**
 * The executable of typed-permissions-cli: runs the command line with the process's arguments. The
 * `typed-permissions` command of the runtime package starts this same `main`.
 */
import { runMain } from './commands/main.js';

await runMain(process.argv.slice(2));
