/**
 * Writing generated Markdown within a size budget: lines kept with a running size, and tables with
 * aligned columns. A huge or hostile policy stops the writer ({@link OverBudgetError}) before the text it
 * would produce exhausts memory, so that a shorter form can be written instead.
 */

/** Columns are aligned up to this width; a longer cell sticks out rather than widening every row of its table. */
const ALIGN_MAX_WIDTH = 160;

/** Thrown by {@link BoundedLines} when the text would pass its budget; the writer catches it and writes less. */
export class OverBudgetError extends Error {
  constructor(readonly maxChars: number) {
    super(`The text would be longer than ${maxChars} characters.`);
    this.name = 'OverBudgetError';
  }
}

/**
 * The lines of a file, with a running size checked against the budget before anything is kept.
 *
 * @example
 * ```ts
 * const out = new BoundedLines(1024);
 * out.push('# Permissions'); // throws OverBudgetError past 1,024 characters
 * ```
 */
export class BoundedLines {
  readonly lines: string[] = [];
  private size = 0;

  constructor(private readonly maxChars: number) {}

  /** Throws when `chars` more characters (about to be built) would pass the budget. */
  reserve(chars: number): void {
    if (this.size + chars > this.maxChars) throw new OverBudgetError(this.maxChars);
  }

  push(line: string): void {
    this.size += line.length + 1;
    if (this.size > this.maxChars) throw new OverBudgetError(this.maxChars);
    this.lines.push(line);
  }
}

/**
 * Writes a Markdown table with aligned columns. Done here rather than by prettier: prettier takes
 * minutes on the megabytes of Markdown a large policy produces, and aligning is all it would do.
 * Widths are found with loops (a spread over every row overflows the stack on large tables).
 *
 * @example
 * ```ts
 * writeTable(out, ['Method', 'Kind'], [['`isCreator`', 'isOwner']]);
 * ```
 */
export function writeTable(out: BoundedLines, header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((cell) => Math.max(3, cell.length));
  for (const row of rows) {
    for (let c = 0; c < widths.length; c++) {
      const length = (row[c] ?? '').length;
      if (length > (widths[c] as number)) widths[c] = length;
    }
  }
  for (let c = 0; c < widths.length; c++) widths[c] = Math.min(widths[c] as number, ALIGN_MAX_WIDTH);
  const line = (cells: readonly string[]) => `| ${widths.map((width, c) => (cells[c] ?? '').padEnd(width)).join(' | ')} |`;
  out.push(line(header));
  out.push(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) out.push(line(row));
}

/**
 * The smallest size a table row of these cells can have once written.
 *
 * @example
 * ```ts
 * out.reserve(pending + rowSize(row));
 * ```
 */
export function rowSize(cells: readonly string[]): number {
  let size = 2;
  for (const cell of cells) size += cell.length + 3;
  return size;
}
