/**
 * The documentation test's terminal behaves like one terminal a reader pastes blocks into: the folder and the
 * exported variables carry from one block to the next (also after a failing block), shell variables that are not
 * exported do not, and two terminals never share anything.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocumentTerminal } from './doc-terminal.js';

describe('a document’s terminal', () => {
  let project = '';
  beforeAll(() => {
    // The real path: `pwd` prints it, and tmpdir() may be reached through a symbolic link.
    project = realpathSync(mkdtempSync(join(tmpdir(), 'typed-permissions-terminal-test-')));
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('keeps the folder a block changed into for the next block, and for a console command after it', () => {
    const terminal = new DocumentTerminal(project);
    try {
      expect(terminal.paste('mkdir quick-start && cd quick-start\necho made > file.txt', { stopOnError: true }).status).toBe(0);
      expect(terminal.folder).toBe(join(project, 'quick-start'));
      const next = terminal.paste('pwd; cat file.txt', { stopOnError: false });
      expect({ status: next.status, stdout: next.stdout, stderr: next.stderr }).toEqual({
        status: 0,
        stdout: `${join(project, 'quick-start')}\nmade\n`,
        stderr: '',
      });
    } finally {
      terminal.close();
    }
  }, 30_000);

  it('keeps exported variables and unsets, not plain shell variables', () => {
    const terminal = new DocumentTerminal(project);
    try {
      terminal.paste("export GREETING='hello world'\nexport LINES_OF=$'two\\nlines'\nPLAIN=not-exported\nunset HOME", { stopOnError: true });
      expect(terminal.changes).toEqual({ GREETING: 'hello world', LINES_OF: 'two\nlines', HOME: undefined });
      const next = terminal.paste('echo "$GREETING|$LINES_OF|${PLAIN:-none}|${HOME:-no home}"', { stopOnError: false });
      expect(next.stdout).toBe('hello world|two\nlines|none|no home\n');
      terminal.paste('unset GREETING', { stopOnError: false });
      expect(terminal.changes).toEqual({ LINES_OF: 'two\nlines', HOME: undefined });
    } finally {
      terminal.close();
    }
  }, 30_000);

  it('stops an sh block at its first failing command, and stays where that command left it', () => {
    const terminal = new DocumentTerminal(project);
    try {
      const failed = terminal.paste('mkdir -p failing && cd failing\nfalse\ncd ..\necho not reached', { stopOnError: true });
      expect({ status: failed.status, stdout: failed.stdout }).toEqual({ status: 1, stdout: '' });
      expect(terminal.folder).toBe(join(project, 'failing'));
    } finally {
      terminal.close();
    }
  }, 30_000);

  it('is one per document: a second terminal starts in the project, without the first one’s variables', () => {
    const first = new DocumentTerminal(project);
    const second = new DocumentTerminal(project);
    try {
      first.paste('mkdir -p elsewhere && cd elsewhere && export FIRST_ONLY=1', { stopOnError: true });
      const other = second.paste('pwd; echo "${FIRST_ONLY:-unset}"', { stopOnError: false });
      expect(other.stdout).toBe(`${project}\nunset\n`);
      expect(second.changes).toEqual({});
    } finally {
      first.close();
      second.close();
    }
  }, 30_000);
});
