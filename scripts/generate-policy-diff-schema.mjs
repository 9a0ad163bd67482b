#!/usr/bin/env node
/**
 * Writes docs/policy-diff.schema.json: the JSON Schema of `typed-permissions diff --format json`, made from the
 * compiler's one definition of a policy diff (policyDiffJsonSchema) and formatted by prettier like the rest of the
 * repository. `--check` writes nothing and exits 1 when the committed schema is stale.
 *
 * Run it with tsx (it imports the TypeScript sources): `npm run generate`, and `npm run generate:check` checks it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { policyDiffJsonSchema } from '../compiler/review/policy-diff-schema.js';

const target = fileURLToPath(new URL('../docs/policy-diff.schema.json', import.meta.url));
const text = await prettier.format(JSON.stringify(policyDiffJsonSchema()), { ...(await prettier.resolveConfig(target)), filepath: target });

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    // A missing schema is stale.
  }
  if (committed !== text) {
    process.stderr.write('docs/policy-diff.schema.json is stale: run npm run generate and commit it.\n');
    process.exitCode = 1;
  }
} else {
  writeFileSync(target, text);
  process.stdout.write('wrote docs/policy-diff.schema.json\n');
}
