/**
 * What the review page highlights when it compares two versions of a policy: per cell, what changed (a cell
 * granted or no longer granted, attributes shown widened or narrowed, ownership changed), each as a word the page
 * prints beside its colour, and a summary for the top of every page.
 */
import type { PolicyView } from './policy-view.js';

/** One change of one cell; `text` says what changed in words (`any: only date and title`). */
export interface CellMark {
  readonly kind: 'added' | 'removed' | 'widened' | 'narrowed' | 'changed';
  readonly text: string;
}

/** The changes from an earlier version of the policy to the one the page shows. */
export interface SiteChanges {
  /** How the earlier and the shown versions are named to readers (a folder, a bundle file). */
  readonly beforeLabel: string;
  readonly afterLabel: string;
  /** The earlier version, for the cells and names it had that the shown version no longer has. */
  readonly before: PolicyView;
  /** The changes of each cell that changed, by `cellKey`, in a fixed order per cell. */
  readonly marks: ReadonlyMap<string, readonly CellMark[]>;
  /** The summary, one plain sentence a line; empty when nothing changed. */
  readonly summary: readonly string[];
}
