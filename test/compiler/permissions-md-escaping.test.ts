/**
 * PERMISSIONS.md is built from names, attribute patterns and descriptions, which
 * are input. Parsed with a real GFM parser, the matrix must say exactly what the tables grant: no
 * HTML, links, emphasis or extra cells and rows coming from that input.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Heading, Nodes, Root, Table } from 'mdast';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { compileModel, type CompiledModel } from '../../compiler/compile-model.js';
import { emitMatrix } from '../../compiler/emit/emit-matrix.js';
import { markdownCode, markdownName, markdownProse } from '../../compiler/emit/markdown-text.js';
import { planFromJson, planToPatterns } from '../../runtime/core/projection/attribute-plan.js';
import { type GrantCell, type GrantTables, groupOwnershipLabel } from '../../runtime/core/tables/grant-tables.js';
import { makeTempDir, removeTempDir } from './helpers.js';
import { allNodes, inlineTokens, parseGfm, plainText, tableCells } from './markdown-tree.js';

/** The forged-cell attack: an attribute whose code span, left unescaped, makes the cell read "update any *". */
const FORGED_ANY = 'title` | **any**: `*';

const VICTIM_DESCR = 'Victim edits\r| forged | row | **any**: `*` |\nits own titles\u2028next\u2029para\u0007\u001b[31mred\u202eevil\u200b\u0000zero  ';
const HOSTILE_DESCR =
  '<script>alert(1)</script> <img src=x onerror=alert(1)> [l](javascript:alert(1)) ![x](y) http://evil.example ' +
  'www.evil.example a@evil.example ~~strike~~ &lt; **b** _e_ `c` # ends\\';

const HOSTILE_ROLES = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '**strong** _em_ ~~strike~~ *em*',
  '[link](javascript:alert(1)) ![x](y)',
  'http://evil.example www.evil.example a@evil.example',
  '&lt;b&gt; &amp; &#42;',
  '`',
  'ends\\',
  'a | b \\| c',
  '# not a heading #',
];

const definitionFiles: Record<string, unknown> = {
  'victim.permissions.json': [
    {
      roles: 'VICTIM',
      resource: 'document',
      possession: 'own',
      descr: VICTIM_DESCR,
      grant: { update: [FORGED_ANY], read: ['*', '!secret'], 'read:any': ['title'] },
      isOwner: 'isMine',
      listOwned: 'listMine',
    },
  ],
  'x <img src=x> *e* _u_ a|b [l](y) www.evil.example.permissions.json': [
    {
      roles: HOSTILE_ROLES,
      resource: '*',
      descr: HOSTILE_DESCR,
      grant: {
        '<i>x</i>': ['<img src=x onerror=alert(1)>', '`'],
        '**x**': ['`x`'],
        'a|b:any': ['a\\|b', '!_secret_'],
        '`': ['*'],
        'www.evil.example': ['www.evil.example'],
        'a@evil.example': ['a@evil'],
        'x\\': ['&lt;', 'ends\\'],
        '&amp;': ['~~s~~', '[l](y)'],
      },
    },
    { roles: ['*'], resource: '**res** #', grant: { 'read:own': ['*'] }, isOwner: '_private_', limitOwned: '__limit__', descr: 'own | injected | cells' },
    { roles: 'a | b \\| c', resource: 'www.evil.example', grant: ['read'] },
    { roles: '`', resource: 'a`b|c\\', grant: { 'update:any': ['`', '``x``', 'x`'] } },
  ],
};

/** What a description shows: line breaks, controls and format characters as spaces, no spaces at either end. */
const shownDescription = (descr: string) => descr.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu, ' ').replace(/^ +| +$/g, '');

/** The tokens a cell must hold: `any`/`own` in bold, the hook's name, one code span per attribute pattern. */
function expectedCellTokens(tables: GrantTables, cell: GrantCell): string[] {
  const patterns = (plan: number) =>
    planToPatterns(planFromJson(tables.plans[plan]!)).flatMap((pattern, i) => (i === 0 ? [`code:${pattern}`] : ['text: ', `code:${pattern}`]));
  const parts: string[][] = [];
  if (cell[3] !== -1) parts.push(['strong:any', 'text:: ', ...patterns(cell[3])]);
  for (let i = 0; i < cell[4].length; i += 2)
    parts.push(['strong:own', `text: (${groupOwnershipLabel(tables, cell[4][i]!, cell[0])}): `, ...patterns(cell[4][i + 1]!)]);
  return parts.flatMap((part, i) => (i === 0 ? part : ['html:<br>', ...part]));
}

/**
 * A pipe right after a backslash cannot sit inside a GFM code span (the pair `\|` would be read as an
 * escaped pipe); the emitter closes the span there and writes the pipe as text between two spans.
 * Rejoin those pieces, so that each attribute pattern compares as one span.
 */
function joinSplitSpans(tokens: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const last = joined.at(-1);
    if (last !== undefined && last.startsWith('code:') && last.endsWith('\\') && token === 'text:|' && tokens[i + 1]?.startsWith('code:')) {
      joined[joined.length - 1] = `${last}|${tokens[i + 1]!.slice('code:'.length)}`;
      i++;
    } else if (last !== undefined && last.startsWith('code:') && last.endsWith('\\') && token.startsWith('text:|')) {
      joined[joined.length - 1] = `${last}|`;
      if (token !== 'text:|') joined.push(`text:${token.slice('text:|'.length)}`);
    } else joined.push(token);
  }
  return joined;
}

let temp: string | undefined;
let model: CompiledModel;
let label: string;
let markdown: string;
let tree: Root;

describe('PERMISSIONS.md says exactly what the tables grant, whatever the names', () => {
  beforeAll(() => {
    temp = makeTempDir('matrix-escaping');
    const definitionsDir = join(temp, 'defs <b>x *y* `z` &lt;');
    mkdirSync(definitionsDir);
    for (const [name, definitions] of Object.entries(definitionFiles)) writeFileSync(join(definitionsDir, name), JSON.stringify(definitions, null, 2));
    const result = compileModel(definitionsDir);
    if (!result.ok) throw new Error(`the hostile definitions must stay valid: ${JSON.stringify(result.problems, null, 2)}`);
    model = result.model;
    label = basename(definitionsDir);
    markdown = emitMatrix({ model, runtimeImport: 'typed-permissions', definitionsLabel: label }).content;
    tree = parseGfm(markdown);
  });
  afterAll(() => removeTempDir(temp));
  whatAReaderSees();

  it('the forged attribute shows up literally, as one code span, in the one cell that grants it and nowhere else', () => {
    const tablesInFile = tree.children.filter((node): node is Table => node.type === 'table');
    const found: string[] = [];
    tablesInFile.forEach((table, t) =>
      tableCells(table).forEach((row) =>
        row.forEach((cell, c) => {
          if (plainText(cell).includes('title`'))
            found.push(`${t}/${plainText(row[0]!)}/${plainText(tableCells(table)[0]![c]!)}: ${inlineTokens(cell).join(' ‖ ')}`);
        }),
      ),
    );
    expect(found).toEqual([`2/VICTIM/update: strong:own ‖ text: (isMine):  ‖ code:${FORGED_ANY}`]);
    const victimDescription = tableCells(tablesInFile[tablesInFile.length - 1]!).find((row) => plainText(row[0]!) === 'victim.permissions.json #0');
    expect(victimDescription?.map(plainText)).toEqual([
      'victim.permissions.json #0',
      'VICTIM',
      'document',
      'Victim edits | forged | row | **any**: `*` | its own titles next para  [31mred evil  zero',
    ]);
  });
});

function whatAReaderSees(): void {
  it('the hostile names are all in the tables (the test exercises them)', () => {
    const { tables } = model;
    expect(tables.roles).toEqual(expect.arrayContaining([...HOSTILE_ROLES, 'VICTIM']));
    expect(tables.resources).toEqual(['**res** #', 'a`b|c\\', 'document', 'www.evil.example']);
    expect(tables.actions).toEqual(expect.arrayContaining(['<i>x</i>', '**x**', 'a|b', '`', 'www.evil.example', 'a@evil.example', 'x\\', '&amp;']));
  });

  it('no raw HTML but the generated-file comment and the <br> between any and own; no links, images, emphasis or strikethrough at all', () => {
    const nodes = allNodes(tree);
    const html = nodes.filter((node) => node.type === 'html').map((node) => ('value' in node ? node.value : ''));
    expect(html[0]).toBe('<!-- Generated by typed-permissions — do not edit. Change the definitions and run `npx typed-permissions compile`. -->');
    expect(new Set(html.slice(1))).toEqual(new Set(['<br>']));
    expect(
      nodes.filter((node) => ['link', 'linkReference', 'image', 'imageReference', 'emphasis', 'delete', 'footnoteReference', 'definition'].includes(node.type)),
    ).toEqual([]);
    // The only bold text is the emitter's own "any" and "own".
    expect(new Set(nodes.filter((node) => node.type === 'strong').map(plainText))).toEqual(new Set(['any', 'own']));
    expect(markdown.startsWith('<!-- Generated by typed-permissions')).toBe(true);
  });

  it('the headings, the intro and every table have exactly the expected shape and text', () => {
    const { tables, resourceActions, definitions } = model;
    const headings = tree.children.filter((node): node is Heading => node.type === 'heading').map((node) => [node.depth, plainText(node)]);
    expect(headings).toEqual([[1, 'Permissions'], ...tables.resources.map((resource) => [2, resource]), [2, 'Ownership checks'], [2, 'Definitions']]);
    const intro = tree.children[2] as Nodes;
    expect(inlineTokens(intro).slice(0, 3)).toEqual(['text:Who may do what, compiled from ', `code:${label}/`, 'text:. ']);

    const tablesInFile = tree.children.filter((node): node is Table => node.type === 'table');
    expect(tablesInFile).toHaveLength(tables.resources.length + 2);
    tables.resources.forEach((resource, r) => {
      const actions = resourceActions.get(resource) as readonly string[];
      const cells = tables.cells.filter((cell) => cell[0] === r);
      const roles = [...new Set(cells.map((cell) => cell[2]))].sort((a, b) => a - b);
      const rows = tableCells(tablesInFile[r]!);
      expect(rows.map((row) => row.length)).toEqual(new Array(roles.length + 1).fill(actions.length + 1));
      expect(rows[0]!.map(plainText)).toEqual(['Role', ...actions]);
      roles.forEach((role, i) => {
        const row = rows[i + 1]!;
        expect(plainText(row[0]!)).toBe(tables.roles[role]);
        actions.forEach((action, a) => {
          const cell = cells.find((candidate) => candidate[2] === role && tables.actions[candidate[1]] === action);
          expect({ resource, role: tables.roles[role], action, tokens: joinSplitSpans(inlineTokens(row[a + 1]!)) }).toEqual({
            resource,
            role: tables.roles[role],
            action,
            tokens: cell === undefined ? [] : expectedCellTokens(tables, cell),
          });
        });
      });
    });

    const hooks = tableCells(tablesInFile[tables.resources.length]!);
    expect(hooks.map((row) => row.map(plainText))).toEqual([
      ['Method', 'Kind'],
      ['__limit__', 'limitOwned'],
      ['_private_', 'isOwner'],
      ['isMine', 'isOwner'],
      ['listMine', 'listOwned'],
    ]);
    const rows = tableCells(tablesInFile[tables.resources.length + 1]!);
    expect(rows.map((row) => row.map(plainText))).toEqual([
      ['Where', 'Roles', 'Resource', 'Description'],
      ...definitions.map(({ file, index, definition }) => [
        `${file} #${index}`,
        (typeof definition.roles === 'string' ? [definition.roles] : definition.roles).join(', '),
        definition.resource,
        shownDescription(definition.descr ?? ''),
      ]),
    ]);
  });
}

describe('markdown-text escaping, one construct at a time', () => {
  /** Renders `text` into a one-row table cell and a heading, and reads both back. */
  function roundTrip(cell: string, heading: string): { cell: Nodes; columns: number; heading: Nodes } {
    const tree = parseGfm(`| a | b |\n| --- | --- |\n| ${cell} | x |\n\n## ${heading}\n`);
    const table = tree.children[0] as Table;
    const row = table.children[1]!;
    return { cell: row.children[0]!, columns: row.children.length, heading: tree.children[1] as Nodes };
  }

  it.each([
    ['`'],
    ['``'],
    ['a`b'],
    ['`a`'],
    [' a '],
    ['a\\'],
    ['a\\|b'],
    ['\\|'],
    ['|\\|\\||'],
    ['a | b'],
    ['<b>'],
    ['**x**'],
    ['www.evil.example'],
    ['\u0007\r\n'],
  ])('markdownCode(%j) is one literal code span in a cell and in a heading', (text) => {
    const { cell, columns, heading } = roundTrip(markdownCode(text, 'table'), markdownCode(text, 'text'));
    const visible = text.replace(/[\p{Cc}]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    expect(columns).toBe(2);
    expect(joinSplitSpans(inlineTokens(cell))).toEqual([`code:${visible}`]);
    expect(inlineTokens(heading)).toEqual([`code:${visible}`]);
  });

  it.each([
    ['EMPLOYEE'],
    ['EMPLOYEE_MANAGER _a_ a__b a_ _b 1_2_3'],
    ['`'],
    ['ends\\'],
    ['a\\|b'],
    [' padded  '],
    ['**x** _y_ ~~z~~ ~w~'],
    ['<img src=x onerror=alert(1)>'],
    ['[l](javascript:alert(1)) ![x](y) [^1]'],
    ['&lt; &amp; &#42;'],
    ['# x #'],
    ['HTTP://evil.example WWW.evil.example a@evil.example mailto:a@b.example xmpp:a@b.example'],
  ])('markdownName(%j) renders as exactly that text, in a cell and in a heading', (text) => {
    const { cell, columns, heading } = roundTrip(markdownName(text, 'table'), markdownName(text, 'text'));
    expect(columns).toBe(2);
    expect(plainText(cell)).toBe(text);
    expect(plainText(heading)).toBe(text);
    expect(
      allNodes(cell)
        .concat(allNodes(heading))
        .filter((node) => !['tableCell', 'heading', 'text', 'inlineCode'].includes(node.type)),
    ).toEqual([]);
  });

  it('a plain name and a plain description are written unchanged', () => {
    expect([
      markdownName('EMPLOYEE_MANAGER', 'table'),
      markdownProse('An editor does anything to any article.', 'table'),
      markdownCode('!address.street', 'table'),
    ]).toEqual(['EMPLOYEE_MANAGER', 'An editor does anything to any article.', '`!address.street`']);
  });

  it('a description keeps its words and loses its line breaks and controls', () => {
    const { cell, columns } = roundTrip(markdownProse(' a\r\nb\u2028c\u2029d\u0007e\u001bf\u202eg\u200bh | i ', 'table'), 'x');
    expect(columns).toBe(2);
    expect(plainText(cell)).toBe('a  b c d e f g h | i');
  });
});
