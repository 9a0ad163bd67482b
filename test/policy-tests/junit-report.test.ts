/**
 * The JUnit report cannot be forged by what the tests and definitions say. Test files and definitions whose names,
 * roles, ids, attribute names, descriptions and file names carry "]]>" (several in one text), markup and every XML
 * special character, characters XML 1.0 cannot carry, and a lone surrogate, are run through `typed-permissions test
 * --reporter junit`; a strict XML parser (saxes) reads back exactly one test case per test, with the text the
 * command printed — U+FFFD only where XML 1.0 cannot carry a character.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { reportText } from '../../compiler/policy-tests/junit-report.js';
import { makeTempDir, removeTempDir } from '../compiler/helpers.js';
import { run } from './policy-test-folders.js';

const folders: string[] = [];
afterAll(() => folders.forEach(removeTempDir));

/** An element as the parser read it: its attributes, its text (text and CDATA together) and its children. */
interface XmlElement {
  readonly name: string;
  readonly attributes: Record<string, string>;
  text: string;
  readonly children: XmlElement[];
}

/** Parses `xml` strictly (any well-formedness error throws): its root element. */
function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser();
  const root: XmlElement = { name: '', attributes: {}, text: '', children: [] };
  const open: XmlElement[] = [root];
  const current = () => open[open.length - 1] as XmlElement;
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    const element: XmlElement = { name: tag.name, attributes: { ...(tag.attributes as Record<string, string>) }, text: '', children: [] };
    current().children.push(element);
    open.push(element);
  });
  parser.on('closetag', () => void open.pop());
  parser.on('text', (text) => void (current().text += text));
  parser.on('cdata', (text) => void (current().text += text));
  parser.write(xml).close();
  expect(root.children.length).toBe(1);
  return root.children[0] as XmlElement;
}

/** Every "]]>" twice, markup that would close the failure and add a test case, and XML's special characters. */
const FORGE = ']]>]]></failure></testcase><testcase name="forged"><failure><![CDATA[';
const SPECIAL = `<b>&amp;"quoted" 'single'`;

const user = `o'<b>&"${FORGE}`;
const role = `R${FORGE}`;
const id = `${FORGE}${SPECIAL}`;
const attribute = `${SPECIAL}]]>`;
const descr = `writers own what they wrote ${FORGE} ${SPECIAL}`;
const fileName = `x&<>'"]]>.permissions.test.json`;

/** A definitions folder whose names and description are hostile, and two test files (one with a hostile name). */
function hostileFolder(): string {
  const dir = makeTempDir('junit');
  folders.push(dir);
  const definitions = [
    { roles: ['WRITER'], resource: 'note', descr, possession: 'own', grant: { read: ['*'] }, isOwner: 'isWriter', listOwned: 'listWritten' },
  ];
  writeFileSync(join(dir, 'note.permissions.json'), JSON.stringify({ definitions }, null, 2));
  const world = {
    users: {
      [user]: { id: 1, roles: ['WRITER'] },
      // A role no definition names: it is shown in the explanation.
      'the stranger': { id: 2, roles: [role] },
      // U+FFFF is a name character, but not one XML 1.0 can carry.
      'u\uFFFF': { id: 3, roles: ['WRITER'] },
    },
    ownership: { isWriter: { [user]: ['n1'] } },
    records: { note: { n1: { id: 'n1', [attribute]: 'v', text: 't' } } },
  };
  const tests = [
    { user, action: 'read', resource: 'note', resourceId: 'n1', expect: 'granted' },
    { user, action: 'read', resource: 'note', resourceId: id, expect: 'granted' },
    { user: 'the stranger', action: 'read', resource: 'note', expect: 'granted' },
    { user, action: 'read', resource: 'note', resourceId: 'n1', expect: 'granted', attributes: ['id'] },
    { user: 'u\uFFFF', action: 'read', resource: 'note', expect: 'denied' },
    // An id with a control character and a lone surrogate: shown as visible escapes, as the command prints them.
    { user, action: 'read', resource: 'note', resourceId: 'a\u0001\uD800', expect: 'granted' },
  ];
  // One field of the file a line, then one test a line: test i stands on line 6 + i, column 5.
  const fields = Object.entries(world).map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)},`);
  const text = ['{', ...fields, '  "tests": [', tests.map((test) => `    ${JSON.stringify(test)}`).join(',\n'), '  ]', '}', ''].join('\n');
  writeFileSync(join(dir, 'hostile.permissions.test.json'), text);
  writeFileSync(
    join(dir, fileName),
    JSON.stringify({ users: { ann: { id: 1, roles: ['WRITER'] } }, tests: [{ user: 'ann', action: 'read', resource: 'note', expect: 'granted' }] }),
  );
  return dir;
}

describe('the JUnit report of hostile tests', () => {
  it('has exactly one test case per test, each with the exact name, message and explanation the command printed', async () => {
    const dir = hostileFolder();
    const reportFile = join(dir, 'report.xml');
    const { code, logs, errors } = await run('test', dir, '--reporter', 'junit', reportFile);
    expect([code, errors, logs.slice(-2)]).toEqual([1, [], [`typed-permissions: wrote the JUnit report to ${reportFile}.`, '2 passed, 5 failed']]);
    const report = parseXml(readFileSync(reportFile, 'utf8'));

    const hostileFile = `${dir}/hostile.permissions.test.json`;
    const otherFile = `${dir}/${fileName}`;
    expect(report.name).toBe('testsuites');
    expect(report.attributes).toEqual({ name: 'typed-permissions policy tests', tests: '7', failures: '5', errors: '0', skipped: '0' });
    expect(report.children.map((suite) => [suite.name, suite.attributes['name'], suite.children.map((test) => test.name)])).toEqual([
      ['testsuite', hostileFile, ['testcase', 'testcase', 'testcase', 'testcase', 'testcase', 'testcase']],
      ['testsuite', otherFile, ['testcase']],
    ]);

    const cases = report.children.flatMap((suite) => suite.children);
    expect(cases.map((test) => test.attributes)).toEqual([
      ...[
        `${user} read note "n1": granted`,
        `${user} read note ${JSON.stringify(id)}: granted`,
        'the stranger read note: granted',
        `${user} read note "n1": granted`,
        'u\uFFFD read note: denied',
        `${user} read note "a\\u0001\\ud800": granted`,
      ].map((name) => ({ classname: hostileFile, name, file: hostileFile })),
      { classname: otherFile, name: 'ann read note: granted', file: otherFile },
    ]);

    // Each failure: the command's FAIL line and the two-space indented lines under it, read back from the report.
    const failed = cases.filter((test) => test.children.length > 0);
    expect(failed.map((test) => test.children.map((child) => child.name))).toEqual([['failure'], ['failure'], ['failure'], ['failure'], ['failure']]);
    const printed = logs
      .slice(0, -2)
      .join('\n')
      .split(/\n(?=FAIL )/)
      .map((block) => {
        const [head, what, ...explanation] = block.split('\n') as [string, string, ...string[]];
        const location = /^FAIL (\S+:\d+:\d+) /.exec(head)?.[1] as string;
        return { message: `${location}: ${what.slice(2)}`, text: explanation.map((line) => line.slice(2)).join('\n') };
      });
    expect(failed.map((test) => ({ message: test.children[0]?.attributes['message'], text: test.children[0]?.text }))).toEqual(
      printed.map(({ message, text }) => ({ message: message.replace('\uFFFF', '\uFFFD'), text: text.replace('\uFFFF', '\uFFFD') })),
    );

    // What the report says, by hand, for the failures that carry the hostile texts.
    const [byId, byRole, byAttribute] = failed.map((test) => test.children[0] as XmlElement);
    const quotedId = JSON.stringify(id);
    expect(byId?.attributes['message']).toBe(`${hostileFile}:7:5: expected granted, got denied`);
    expect(byId?.text).toBe(
      [
        'read on note for roles WRITER: NOT GRANTED for id ' + quotedId,
        '  - WRITER: own (when isWriter says so), attributes *',
        `      from note.permissions.json #0 ("${descr}") as own`,
        `  - id ${quotedId}: isWriter answered not owned.`,
        `  - id ${quotedId} refused: no ownership hook matched.`,
      ].join('\n'),
    );
    expect(byRole?.text).toBe(
      [`read on note for roles ${role}: NOT GRANTED`, `  - role ${JSON.stringify(role)} is not named by any definition; it is ignored.`].join('\n'),
    );
    expect(byAttribute?.attributes['message']).toBe(
      `${hostileFile}:9:5: expected attributes id; pick kept ${attribute}, id, text (not expected: ${attribute}, text)`,
    );
  }, 30_000);
});

describe('reportText', () => {
  it('replaces only what XML 1.0 cannot carry, and splits every "]]>" of CDATA but the first (which the builder splits)', () => {
    expect(reportText('tab\t line\n cr\r nul\u0000 esc\u001b fffe\uFFFE ffff\uFFFF lone\uD800 low\uDC00 pair\uD83D\uDE00', 'attribute')).toBe(
      'tab\t line\n cr\r nul\uFFFD esc\uFFFD fffe\uFFFD ffff\uFFFD lone\uFFFD low\uFFFD pair\uD83D\uDE00',
    );
    expect(reportText('cr\r\n x]]>y]]>z]]]>', 'cdata')).toBe('cr\uFFFD\n x]]>y]]]]><![CDATA[>z]]]]]><![CDATA[>');
    expect(reportText('<b>&amp;"\'', 'cdata')).toBe('<b>&amp;"\'');
  });
});
