/**
 * What every implementation in the bench provides: a decider (can these roles do this action on
 * this resource?), a picker (reduce one record to the allowed attributes) and a filter-picker
 * (reduce a list, dropping what may not be seen). Setup happens in `prepare`, outside the timing.
 */
import type { FillerRecord } from '../scenario.js';

/** The user of a query: an id and role names. */
export interface BenchUser {
  readonly id: number;
  readonly roles: readonly string[];
}

/** A decision without a resource id. */
export interface DecisionQuery {
  readonly user: BenchUser;
  readonly resource: string;
  readonly action: string;
}

/** Answers query `i` of the prepared list. */
export type DecisionCheck = (i: number) => boolean | Promise<boolean>;

/** One implementation of the decision. */
export interface Decider {
  readonly name: string;
  /** Models only create/read/update/delete (accesscontrol 2). */
  readonly crudOnly: boolean;
  /** Builds whatever the library keeps per user (CASL abilities, casbin role links), then returns the check. */
  prepare(queries: readonly DecisionQuery[]): Promise<DecisionCheck>;
}

/** A `read` of one record by one user. */
export interface PickCase {
  readonly user: BenchUser;
  readonly resource: string;
  readonly action: string;
}

/** Reduces one record (a filler record unless said otherwise). */
export type PickFunction<TItem extends object = FillerRecord> = (item: TItem) => object | Promise<object>;

/** One implementation of pick. */
export interface Picker<TItem extends object = FillerRecord> {
  readonly name: string;
  prepare(pickCase: PickCase): Promise<PickFunction<TItem>>;
}

/** Reduces a list: keeps what the user may see, each item reduced. Includes the per-request decision. */
export type FilterPickFunction = (items: readonly FillerRecord[]) => object[] | Promise<object[]>;

/** One implementation of filterPick. */
export interface FilterPicker {
  readonly name: string;
  prepare(pickCase: PickCase): Promise<FilterPickFunction>;
}
