/** The phases of a compile, as it tells them to a progress callback. */

/**
 * A phase of a compile as it starts: reading the folder's files, checking the definitions, expanding them into
 * grants (only once every limit is checked), generating the output from the grants, writing the output files.
 */
export interface CompilePhase {
  readonly name: 'reading' | 'checking' | 'expanding' | 'emitting' | 'writing';
  readonly count: number;
}
