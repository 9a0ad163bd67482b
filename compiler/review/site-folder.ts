/**
 * Writes the review site into its folder: replaced as a whole (the compiler's own swap, compiler/output/), and only
 * when the folder is missing, empty, or a site render wrote before — never the definitions, the compiler's
 * generated/ folder or anything of the user's.
 */
import { lstatSync, readdirSync } from 'node:fs';
import type { EmittedFile } from '../emit/emit-context.js';
import { inspectOutputFolder, UnsafeOutputError } from '../output/output-folder.js';
import { writeAtomically } from '../output/write-output.js';
import type { CompileProblem } from '../problems/compile-problem.js';
import { SITE_MARKER } from './site-marker.js';

/** Whether `target` holds anything; false when it is missing or not a folder (the output checks report that). */
function holdsEntries(target: string): boolean {
  try {
    return lstatSync(target).isDirectory() && readdirSync(target).length > 0;
  } catch {
    return false;
  }
}

/**
 * Why the site may not be written to `outDir`, or nothing: the checks of the compiler's output folder (not the
 * definitions folder, only generated files), and, for a folder that holds anything, the marker of an earlier render.
 *
 * @example
 * ```ts
 * siteFolderProblems('generated', 'definitions'); // [{ code: 'unsafe-output', message: 'The folder … is not a review site …', … }]
 * ```
 */
export function siteFolderProblems(outDir: string, definitionsDir: string | undefined): CompileProblem[] {
  const inspection = inspectOutputFolder(outDir, definitionsDir);
  if (inspection.problems.length > 0) return [...inspection.problems];
  const { target } = inspection;
  if (!holdsEntries(target) || readdirSync(target).includes(SITE_MARKER.path)) return [];
  return [
    {
      file: outDir,
      path: [],
      code: 'unsafe-output',
      origin: 'output',
      message:
        `The folder ${target} is not empty and is not a review site render wrote (it has no ${SITE_MARKER.path}); ` +
        'render replaces its folder as a whole and would delete what it holds.',
      fix: 'Pass a new or empty folder for --out, for example --out policy-site.',
    },
  ];
}

/**
 * Replaces `outDir` with the site's files, after {@link siteFolderProblems}; returns those problems (and writes
 * nothing) when there are any.
 *
 * @example
 * ```ts
 * const problems = writeSite('policy-site', renderSite({ policy, source: 'definitions/' }), 'definitions');
 * ```
 */
export function writeSite(outDir: string, files: readonly EmittedFile[], definitionsDir: string | undefined): CompileProblem[] {
  const problems = siteFolderProblems(outDir, definitionsDir);
  if (problems.length > 0) return problems;
  try {
    writeAtomically(outDir, files);
  } catch (error) {
    // Something foreign appeared since the check: still refused, with the same problem lines.
    if (error instanceof UnsafeOutputError) return [...error.problems];
    throw error;
  }
  return [];
}
