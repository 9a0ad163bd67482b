#!/usr/bin/env node
/**
 * Writes the JSON documents the repository generates from its own definitions, each formatted by prettier like the
 * rest of the repository:
 * - docs/decision-service.openapi.json: the OpenAPI 3.1 document of the decision service with its default limits,
 *   made from the service's route schemas (decisionServiceOpenApi; its server a template with the defaults of
 *   `typed-permissions serve`);
 * - docs/policy-diff.schema.json: the JSON Schema of `typed-permissions diff --format json`, made from the
 *   compiler's one definition of a policy diff (policyDiffJsonSchema).
 * `--check` writes nothing and exits 1 naming each committed document that is stale.
 *
 * Run it with tsx (it imports the TypeScript sources): `npm run generate` (with the compiled definitions), and
 * `npm run generate:check` checks it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { policyDiffJsonSchema } from '../compiler/review/policy-diff-schema.js';
import { decisionServiceOpenApi } from '../runtime/service/openapi-document.js';

const DOCUMENTS = [
  { path: 'docs/decision-service.openapi.json', make: () => decisionServiceOpenApi() },
  { path: 'docs/policy-diff.schema.json', make: () => policyDiffJsonSchema() },
];

/** Writes the document at `path` (from the repository's root), or with `check` says whether the committed one differs. */
async function writeOrCheck(path, value, check) {
  const target = fileURLToPath(new URL(`../${path}`, import.meta.url));
  const text = await prettier.format(JSON.stringify(value), { ...(await prettier.resolveConfig(target)), filepath: target });
  if (!check) {
    writeFileSync(target, text);
    process.stdout.write(`wrote ${path}\n`);
    return;
  }
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    // A missing document is stale.
  }
  if (committed !== text) {
    process.stderr.write(`${path} is stale: run npm run generate and commit it.\n`);
    process.exitCode = 1;
  }
}

const check = process.argv.includes('--check');
for (const { path, make } of DOCUMENTS) await writeOrCheck(path, await make(), check);
