#!/usr/bin/env node
/**
 * Writes docs/decision-service.openapi.json: the OpenAPI 3.1 document of the decision service with its default
 * limits, made from the service's own route schemas (decisionServiceOpenApi; its server a template with the
 * defaults of `typed-permissions serve`) and formatted by prettier like the rest of the repository. `--check`
 * writes nothing and exits 1 when the committed document is stale.
 *
 * Run it with tsx (it imports the TypeScript sources): `npm run generate` (with the compiled definitions), and
 * `npm run generate:check` checks it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { decisionServiceOpenApi } from '../runtime/service/openapi-document.js';

const target = fileURLToPath(new URL('../docs/decision-service.openapi.json', import.meta.url));
const text = await prettier.format(JSON.stringify(await decisionServiceOpenApi()), { ...(await prettier.resolveConfig(target)), filepath: target });

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    // A missing document is stale.
  }
  if (committed !== text) {
    process.stderr.write('docs/decision-service.openapi.json is stale: run npm run generate and commit it.\n');
    process.exitCode = 1;
  }
} else {
  writeFileSync(target, text);
  process.stdout.write('wrote docs/decision-service.openapi.json\n');
}
