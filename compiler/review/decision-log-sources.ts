/**
 * Where a replay reads logged decisions: a JSON Lines export of the decision log (one decision event per line),
 * or the table a decision log writes to in PostgreSQL (a column holding each event as `jsonb` or JSON text).
 * Both are read as a stream, so a log of millions of decisions never sits in memory whole.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { fileKindOf, loadPg, PermissionsUsageError } from 'typed-permissions/internal';
import { loggedDecisionOf, type LoggedDecision, type UnreadableLine } from './logged-decision.js';

/** The longest line of a JSON Lines log: a decision event is a few hundred bytes. */
export const MAX_LOGGED_LINE_BYTES = 1024 * 1024;
/** Rows fetched from a table at a time. */
const ROWS_PER_FETCH = 5000;

/** What a log gives, in order. */
export type LogEntry = LoggedDecision | UnreadableLine;

/**
 * `file` opened for reading when it is a regular file; anything else (a named pipe, whose plain open waits for a
 * writer for ever, a device, a folder) is refused as what it is. Opened without blocking, and checked on the handle
 * that is then read, so the check and the read are of the same file.
 */
async function openRegularFile(file: string): Promise<FileHandle> {
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  const info = await handle.stat();
  if (info.isFile()) return handle;
  await handle.close();
  throw new PermissionsUsageError(`the decision log ${file} is ${fileKindOf(info)}, not a regular file: give a JSON Lines file of logged decisions.`);
}

/**
 * The decisions of a JSON Lines file, one per line; blank lines are skipped, a line longer than
 * {@link MAX_LOGGED_LINE_BYTES} is unreadable (and never held whole).
 *
 * @example
 * ```ts
 * for await (const entry of decisionsOfJsonLines('decisions.jsonl')) if ('problem' in entry) console.log(entry.line, entry.problem);
 * ```
 */
export async function* decisionsOfJsonLines(file: string): AsyncGenerator<LogEntry> {
  let line = 1;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let tooLong = false;
  const finish = (): LogEntry | undefined => {
    const at = line++;
    if (tooLong) return { line: at, problem: `the line is longer than ${MAX_LOGGED_LINE_BYTES} bytes` };
    const text = Buffer.concat(pending, pendingBytes).toString('utf8').trim();
    if (text === '') return undefined;
    try {
      return loggedDecisionOf(JSON.parse(text), at);
    } catch {
      return { line: at, problem: 'the line is not JSON' };
    }
  };
  for await (const chunk of (await openRegularFile(file)).createReadStream() as AsyncIterable<Buffer>) {
    let start = 0;
    for (let newline = chunk.indexOf(10, start); newline !== -1; newline = chunk.indexOf(10, start)) {
      take(chunk.subarray(start, newline));
      const entry = finish();
      [pending, pendingBytes, tooLong] = [[], 0, false];
      if (entry !== undefined) yield entry;
      start = newline + 1;
    }
    take(chunk.subarray(start));
  }
  const last = finish();
  if (last !== undefined) yield last;

  function take(part: Buffer): void {
    if (tooLong || part.length === 0) return;
    if (pendingBytes + part.length > MAX_LOGGED_LINE_BYTES) {
      [pending, pendingBytes, tooLong] = [[], 0, true];
      return;
    }
    pending.push(part);
    pendingBytes += part.length;
  }
}

/** A table of a decision log: where it is, and which column holds each event. */
export interface DecisionTable {
  readonly connectionString: string;
  /** The table, optionally with its schema (`audit.decision_log`). */
  readonly table: string;
  /** The column holding the event (`jsonb`, `json` or text). */
  readonly column: string;
}

/** An identifier of the command line, quoted for SQL: `schema.table` → `"schema"."table"`. */
function quotedName(name: string, what: string): string {
  const parts = name.split('.');
  if (parts.length > 2 || parts.some((part) => !/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/.test(part)))
    throw new PermissionsUsageError(`${what} ${JSON.stringify(name)} is not a table or column name (letters, digits and _, optionally schema.table).`);
  return parts.map((part) => `"${part}"`).join('.');
}

/**
 * The decisions of a table, read with a cursor inside one read-only transaction (a consistent view, whatever the
 * application writes meanwhile), in the order the table's rows are stored.
 *
 * @example
 * ```ts
 * for await (const entry of decisionsOfTable({ connectionString, table: 'decision_log', column: 'event' })) count++;
 * ```
 */
export async function* decisionsOfTable(source: DecisionTable): AsyncGenerator<LogEntry> {
  const table = quotedName(source.table, 'The table');
  const column = quotedName(source.column, 'The column');
  const { Client } = await loadPg();
  const client = new Client({ connectionString: source.connectionString, application_name: 'typed-permissions replay' });
  await client.connect();
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`DECLARE logged_decisions NO SCROLL CURSOR FOR SELECT ${column}::text AS event FROM ${table}`);
    let line = 1;
    for (;;) {
      const { rows } = await client.query<{ event: string | null }>(`FETCH ${ROWS_PER_FETCH} FROM logged_decisions`);
      for (const row of rows) {
        const at = line++;
        if (row.event === null) {
          yield { line: at, problem: `the row's ${source.column} is null` };
          continue;
        }
        try {
          yield loggedDecisionOf(JSON.parse(row.event), at);
        } catch {
          yield { line: at, problem: `the row's ${source.column} is not JSON` };
        }
      }
      if (rows.length < ROWS_PER_FETCH) break;
    }
    await client.query('COMMIT');
  } finally {
    await client.end().catch(() => undefined);
  }
}
