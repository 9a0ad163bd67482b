/**
 * The review site of a policy: static pages a non-developer can read offline, without JavaScript. `index.html` has
 * the whole matrix (per resource, a table of roles × actions, each cell with any/own, the attributes shown and a
 * sentence); each role and each resource has a page of its own, linked from every page — that is the filter. Given
 * an earlier version, changed cells are highlighted, in colour and in words, with a summary at the top. The output is
 * deterministic: sorted, no timestamps, byte-identical for the same input.
 */
import type { EmittedFile } from '../emit/emit-context.js';
import type { CellGrant } from '../emit/cell-grants.js';
import { cellSentences, listInWords } from './cell-sentence.js';
import { htmlText, pageFileName } from './html-text.js';
import { page, STYLES, type PageFrame, type PageLink } from './page-layout.js';
import { cellKey, type PolicyView } from './policy-view.js';
import type { CellMark, SiteChanges } from './site-changes.js';
import { SITE_MARKER } from './site-marker.js';

/**
 * The most characters the site's files may have together (32 Mi): more than anyone reviews in a browser, and about
 * four times the largest PERMISSIONS.md. A larger policy is refused with {@link SiteTooLargeError}.
 */
export const MAX_SITE_CHARS = 32 * 1024 * 1024;

/** The site would be longer than its limit: nothing is written. */
export class SiteTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(
      `The review site of this policy would have more than ${limit} characters, too many to read in a browser; nothing was written. ` +
        'Read PERMISSIONS.md (written by npx typed-permissions compile), which summarises a policy this large, ' +
        'or ask about one cell with npx typed-permissions explain.',
    );
    this.name = 'SiteTooLargeError';
  }
}

/** What {@link renderSite} shows. */
export interface SiteInput {
  /** The policy the site shows. */
  readonly policy: PolicyView;
  /** Where it comes from, as readers know it (`definitions/`, `policy.json`). */
  readonly source: string;
  /** The changes from an earlier version, to highlight; none without `--before`. */
  readonly changes?: SiteChanges | undefined;
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const union = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])].sort(byCodeUnit);

/**
 * Counts the characters of the site's files as they are made, and stops past the limit: each cell as it is made
 * (one page of a large policy could otherwise grow past what a string may hold before it is counted), then each
 * page whole, which replaces its cells' count.
 */
class Budget {
  private used = 0;
  private pending = 0;
  constructor(private readonly limit: number) {}
  /** Counts a part of the page being made; returns it. */
  part(text: string): string {
    this.pending += text.length;
    if (this.used + this.pending > this.limit) throw new SiteTooLargeError(this.limit);
    return text;
  }
  add(text: string): string {
    this.pending = 0;
    this.used += text.length;
    if (this.used > this.limit) throw new SiteTooLargeError(this.limit);
    return text;
  }
}

/** The policy shown, the earlier one when compared, and the names of both: what every page is made from. */
class SiteModel {
  readonly roles: readonly string[];
  readonly resources: readonly string[];
  readonly roleFiles = new Map<string, string>();
  readonly resourceFiles = new Map<string, string>();
  private readonly actions = new Map<string, readonly string[]>();
  /** Per resource, the roles with a cell on it in either version: read once from the cells, so rows cost what is granted. */
  private readonly rolesWithCells = new Map<string, Set<string>>();

  constructor(
    readonly input: SiteInput,
    readonly budget: Budget,
  ) {
    const before = input.changes?.before;
    this.roles = union(input.policy.roles, before?.roles ?? []);
    this.resources = union(input.policy.resources, before?.resources ?? []);
    this.roles.forEach((role, i) => this.roleFiles.set(role, pageFileName('role', i, role)));
    this.resources.forEach((resource, i) => this.resourceFiles.set(resource, pageFileName('resource', i, resource)));
    for (const cells of [input.policy.cells, before?.cells ?? new Map<string, never>()]) {
      for (const key of cells.keys()) {
        const [resource, role] = JSON.parse(key) as [string, string, string];
        let roles = this.rolesWithCells.get(resource);
        if (roles === undefined) this.rolesWithCells.set(resource, (roles = new Set()));
        roles.add(role);
      }
    }
  }

  actionsOf(resource: string): readonly string[] {
    let actions = this.actions.get(resource);
    if (actions === undefined) {
      actions = union(this.input.policy.actions.get(resource) ?? [], this.input.changes?.before.actions.get(resource) ?? []);
      this.actions.set(resource, actions);
    }
    return actions;
  }

  grants(key: string): readonly CellGrant[] {
    return this.input.policy.cells.get(key) ?? [];
  }

  marks(key: string): readonly CellMark[] {
    return this.input.changes?.marks.get(key) ?? [];
  }

  /** Whether the role has a cell on the resource in either version (rows only for these, as PERMISSIONS.md does). */
  hasCells(resource: string, role: string): boolean {
    return this.rolesWithCells.get(resource)?.has(role) === true;
  }

  links(): { roles: PageLink[]; resources: PageLink[] } {
    return {
      roles: this.roles.map((role) => ({ href: this.roleFiles.get(role)!, text: role })),
      resources: this.resources.map((resource) => ({ href: this.resourceFiles.get(resource)!, text: resource })),
    };
  }
}

/** A link to one of the site's pages; `text` is plain text. */
function link(href: string, text: string): string {
  return `<a href="${htmlText(href)}">${htmlText(text)}</a>`;
}

function attributesHtml(patterns: readonly string[]): string {
  return patterns.length === 0 ? '<span class="not-allowed">no attributes</span>' : patterns.map((pattern) => `<code>${htmlText(pattern)}</code>`).join(' ');
}

function partsHtml(parts: readonly CellGrant[]): string {
  const items = parts.map((part) =>
    part.possession === 'any'
      ? `<li><span class="possession any">any</span> ${attributesHtml(part.patterns)}</li>`
      : `<li><span class="possession own">own</span> (${htmlText(part.ownership.label)}) ${attributesHtml(part.patterns)}</li>`,
  );
  return `<ul class="parts">${items.join('')}</ul>`;
}

const MARK_WORDS: Readonly<Record<CellMark['kind'], string>> = {
  added: 'Added',
  removed: 'Removed',
  widened: 'Widened',
  narrowed: 'Narrowed',
  changed: 'Changed',
};

/** One cell: what it grants (or "not allowed"), its sentences, and, compared, what changed and what it was. */
function cellHtml(site: SiteModel, resource: string, role: string, action: string): string {
  const key = cellKey(resource, role, action);
  const parts = site.grants(key);
  const marks = site.marks(key);
  const content = parts.length === 0 ? '<span class="not-allowed">not allowed</span>' : partsHtml(parts);
  const sentences = cellSentences(role, action, resource, parts)
    .map((sentence) => htmlText(sentence))
    .join(' ');
  let changed = '';
  if (marks.length > 0) {
    changed += marks.map((mark) => `<p class="mark ${mark.kind}"><strong>${MARK_WORDS[mark.kind]}</strong>: ${htmlText(mark.text)}</p>`).join('');
    const before = site.input.changes?.before.cells.get(key) ?? [];
    const was = cellSentences(role, action, resource, before)
      .map((sentence) => htmlText(sentence))
      .join(' ');
    changed += `<p class="before">Before: ${was}</p>`;
  }
  // The cell's colour is that of its first change; each change is also written out in words.
  const kind = marks[0]?.kind;
  return site.budget.part(`<td class="cell${kind === undefined ? '' : ` ${kind}`}">${content}<p class="sentence">${sentences}</p>${changed}</td>`);
}

/** A resource's matrix: a row per role that has a cell on it, a column per action. */
function resourceTable(site: SiteModel, resource: string, roles: readonly string[]): string {
  const actions = site.actionsOf(resource);
  const rows: string[] = [];
  for (const role of roles) {
    if (!site.hasCells(resource, role)) continue;
    const cells = actions.map((action) => cellHtml(site, resource, role, action)).join('');
    rows.push(`<tr><th scope="row">${link(site.roleFiles.get(role)!, role)}</th>${cells}</tr>`);
  }
  if (rows.length === 0) return `<p class="not-allowed">No role may do anything to ${htmlText(resource)}.</p>`;
  const head = actions.map((action) => `<th scope="col">${htmlText(action)}</th>`).join('');
  return [
    // A wide matrix scrolls sideways on a narrow screen rather than widening the page.
    '<div class="table-scroll"><table>',
    `<caption>Who may do what to ${htmlText(resource)}</caption>`,
    `<thead><tr><th scope="col">Role</th>${head}</tr></thead>`,
    '<tbody>',
    ...rows,
    '</tbody>',
    '</table></div>',
  ].join('\n');
}

function summaryHtml(changes: SiteChanges | undefined): string {
  if (changes === undefined) return '';
  const compared = `Compared with ${htmlText(changes.beforeLabel)}, the earlier version, this is what changed in ${htmlText(changes.afterLabel)}.`;
  if (changes.summary.length === 0)
    return `<section class="summary" aria-labelledby="changes"><h2 id="changes">Changes</h2><p>${compared} Nothing changed.</p></section>`;
  const items = changes.summary.map((line) => `<li>${htmlText(line)}</li>`).join('');
  return (
    `<section class="summary" aria-labelledby="changes"><h2 id="changes">Changes</h2><p>${compared} ` +
    'Changed cells are coloured and say what changed: <strong>added</strong>, <strong>removed</strong>, <strong>widened</strong> (more attributes shown), ' +
    `<strong>narrowed</strong> (fewer) or <strong>changed</strong>; each also says what it was before.</p><ul>${items}</ul></section>`
  );
}

const LEGEND =
  '<section class="legend" aria-label="How to read this page"><p><span class="possession any">any</span> means every record of the resource; ' +
  '<span class="possession own">own</span> means only the records the user owns, as the named rule or check decides. ' +
  'Attributes: <code>*</code> all, <code>!name</code> all but that one, a plain name only that one. ' +
  'A user with several roles gets the combination of their roles. Each cell also says it in a sentence.</p></section>';

function rulesHtml(site: SiteModel, resource?: string): string {
  const rules = [...site.input.policy.rules].filter((rule) => resource === undefined || rule.resource === resource);
  if (rules.length === 0) return '';
  const rows = rules.map(
    (rule) =>
      `<tr><th scope="row">${link(site.resourceFiles.get(rule.resource) ?? 'index.html', rule.resource)}</th>` +
      `<td><code>${htmlText(rule.name)}</code></td><td>${htmlText(rule.condition)}</td></tr>`,
  );
  return [
    '<section aria-labelledby="rules"><h2 id="rules">Ownership rules</h2>',
    '<p>A record is <strong>own</strong> through a rule when the rule holds for it, with the attributes of the user who asks.</p>',
    '<div class="table-scroll"><table>',
    '<thead><tr><th scope="col">Resource</th><th scope="col">Rule</th><th scope="col">Owns the records where</th></tr></thead><tbody>',
    rows.join('\n'),
    '</tbody></table></div></section>',
  ].join('\n');
}

function frame(site: SiteModel, title: string, current: string): PageFrame {
  return { title, source: site.input.source, current, ...site.links() };
}

function indexPage(site: SiteModel): string {
  const sections = site.resources.map(
    (resource) => `<section><h2>${link(site.resourceFiles.get(resource)!, resource)}</h2>\n${resourceTable(site, resource, site.roles)}\n</section>`,
  );
  return page(
    frame(site, 'Who may do what', 'index.html'),
    [summaryHtml(site.input.changes), LEGEND, ...sections, rulesHtml(site)].filter((part) => part !== '').join('\n'),
  );
}

function resourcePage(site: SiteModel, resource: string): string {
  const descriptions = site.input.policy.descriptions.get(resource) ?? [];
  const why =
    descriptions.length === 0
      ? ''
      : `<section aria-labelledby="why"><h2 id="why">What the definitions say</h2>` +
        `<ul>${descriptions.map((text) => `<li>${htmlText(text)}</li>`).join('')}</ul></section>`;
  const body = [summaryHtml(site.input.changes), LEGEND, resourceTable(site, resource, site.roles), why, rulesHtml(site, resource)];
  return page(frame(site, `Resource ${resource}`, site.resourceFiles.get(resource)!), body.filter((part) => part !== '').join('\n'));
}

/** A role's page: per resource it has a cell on, a row per action with what it grants and the sentence. */
function rolePage(site: SiteModel, role: string): string {
  const sections: string[] = [];
  const none: string[] = [];
  for (const resource of site.resources) {
    if (!site.hasCells(resource, role)) {
      none.push(resource);
      continue;
    }
    const rows = site.actionsOf(resource).map((action) => `<tr><th scope="row">${htmlText(action)}</th>${cellHtml(site, resource, role, action)}</tr>`);
    sections.push(
      [
        `<section><h2><a href="${htmlText(site.resourceFiles.get(resource)!)}">${htmlText(resource)}</a></h2>`,
        `<div class="table-scroll"><table><caption>What ${htmlText(role)} may do to ${htmlText(resource)}</caption>`,
        '<thead><tr><th scope="col">Action</th><th scope="col">Allowed</th></tr></thead><tbody>',
        ...rows,
        '</tbody></table></div></section>',
      ].join('\n'),
    );
  }
  const noneLinks = none.map((resource) => link(site.resourceFiles.get(resource)!, resource));
  const nothing = none.length === 0 ? '' : `<p class="not-allowed">${htmlText(role)} may do nothing to ${listInWords(noneLinks)}.</p>`;
  const body = [summaryHtml(site.input.changes), LEGEND, ...sections, nothing];
  return page(frame(site, `Role ${role}`, site.roleFiles.get(role)!), body.filter((part) => part !== '').join('\n'));
}

/**
 * The files of the review site, sorted by name: `index.html`, a `role-…html` per role, a `resource-…html` per
 * resource, `styles.css` and the marker that tells a later render the folder is its own.
 *
 * @param maxChars the most characters of the pages together; {@link MAX_SITE_CHARS} unless a test passes a smaller one.
 * @throws SiteTooLargeError past `maxChars`.
 * @example
 * ```ts
 * const files = renderSite({ policy: policyView(model.tables), source: 'definitions/' });
 * files.map((file) => file.path); // ['index.html', 'resource-1-decision.html', …, 'styles.css', 'typed-permissions-render.json']
 * ```
 */
export function renderSite(input: SiteInput, maxChars: number = MAX_SITE_CHARS): EmittedFile[] {
  const budget = new Budget(maxChars);
  const site = new SiteModel(input, budget);
  // Each page is counted as soon as it is made, so a policy past the limit stops one page after it, not at the end.
  const files: EmittedFile[] = [{ path: 'index.html', content: budget.add(indexPage(site)) }];
  for (const role of site.roles) files.push({ path: site.roleFiles.get(role)!, content: budget.add(rolePage(site, role)) });
  for (const resource of site.resources) files.push({ path: site.resourceFiles.get(resource)!, content: budget.add(resourcePage(site, resource)) });
  files.push({ path: 'styles.css', content: budget.add(STYLES) }, { path: SITE_MARKER.path, content: budget.add(SITE_MARKER.content) });
  return files.sort((a, b) => byCodeUnit(a.path, b.path));
}
