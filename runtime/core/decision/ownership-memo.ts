/**
 * The ownership answers of one permit, and how they are obtained: for one record from `isOwner`
 * when the group has one, else computed; for many records at once always computed when it can be —
 * membership in `listOwned` (called once per permit) or one call of the resource's `ownedAmong`
 * with the `limitOwned` filter over every id not answered yet — and only otherwise `isOwner` per
 * record, a bounded number at a time. Answers are kept as values, so a question answered before
 * is answered again without waiting.
 */
import { ConcurrencyLimit, MAX_HOOK_CALLS_IN_FLIGHT } from './concurrency-limit.js';
import type { User } from '../definition/definition-types.js';
import { PermissionsUsageError } from '../common/errors.js';
import { callHook, callHookSync, expectArray, expectBoolean } from './hook-call.js';
import { type BoundHook, type LoadedOwner } from '../tables/table-loader.js';
import { hookArguments } from './hook-arguments.js';

/** What the memo needs from the Permissions instance. */
export interface OwnershipSettings {
  readonly hookTimeoutMs: number;
  /** The tenant the permit was decided in: every hook is asked with it (undefined: no tenant). */
  readonly tenant?: string | undefined;
}

/** A hook's list of ids, copied into a set as it settles: what the hook does with its array afterwards changes nothing. */
function toIdSet(value: unknown, hook: string): ReadonlySet<unknown> {
  return new Set(expectArray(value, hook));
}

/**
 * The ownership answers of one permit. Created on first use, so a permit that never asks about
 * ownership allocates nothing.
 */
export class OwnershipMemo {
  /** Settled answers, per group and id. */
  private readonly answers = new Map<LoadedOwner, Map<unknown, boolean>>();
  /** Point questions in flight, per group and id. */
  private readonly pending = new Map<LoadedOwner, Map<unknown, Promise<boolean>>>();
  /** listOwned results: the set once loaded, the promise while it loads. */
  private readonly lists = new Map<LoadedOwner, ReadonlySet<unknown> | Promise<ReadonlySet<unknown>>>();
  /** limitOwned filters, configured once per permit. */
  private readonly filters = new Map<LoadedOwner, unknown>();

  constructor(
    private readonly user: User<unknown>,
    private readonly settings: OwnershipSettings,
  ) {}

  /** A hook's argument object: the user, the tenant when there is one, and `rest`. */
  private args(rest: object): object {
    return hookArguments(this.user, this.settings.tenant, rest);
  }

  /** The answer for `owner` and `id` when it is already known, without waiting; else undefined. */
  known(owner: LoadedOwner, id: unknown): boolean | undefined {
    // A point answer (isOwner's, where the group has one) is the authority; else membership in the group's list.
    const answer = this.answers.get(owner)?.get(id);
    if (answer !== undefined) return answer;
    const list = this.lists.get(owner);
    return list instanceof Set ? list.has(id) : undefined;
  }

  private record(owner: LoadedOwner, id: unknown, owned: boolean): void {
    let answers = this.answers.get(owner);
    if (answers === undefined) this.answers.set(owner, (answers = new Map<unknown, boolean>()));
    answers.set(id, owned);
  }

  /** The ids `owner`'s listOwned hook returns, called once per permit. */
  listedBy(owner: LoadedOwner, listOwned: BoundHook): Promise<ReadonlySet<unknown>> {
    const known = this.lists.get(owner);
    if (known !== undefined) return Promise.resolve(known);
    const list = callHook(listOwned, this.args({}), this.settings.hookTimeoutMs, toIdSet).then((ids) => {
      this.lists.set(owner, ids);
      return ids;
    });
    this.lists.set(owner, list);
    return list;
  }

  /** `owner`'s limitOwned filter for this user, configured once per permit. */
  private filterOf(owner: LoadedOwner, limitOwned: BoundHook): unknown {
    if (!this.filters.has(owner)) this.filters.set(owner, callHookSync(limitOwned, this.args({})));
    return this.filters.get(owner);
  }

  /** One call of the resource's ownedAmong: which of `ids` (not answered yet) the limitOwned filter owns. */
  private async runOwnedAmong(owner: LoadedOwner, ownedAmong: BoundHook, limitOwned: BoundHook, ids: readonly unknown[]): Promise<void> {
    const asked = [...new Set(ids)].filter((id) => this.known(owner, id) === undefined);
    if (asked.length === 0) return;
    // A rule's executor asks the rule itself: no filter to configure first.
    const filter = owner.rule === undefined ? this.filterOf(owner, limitOwned) : undefined;
    // The executor gets its own frozen copy: chunking it with splice, or keeping it, cannot touch `asked`.
    const resourceIds = Object.freeze(asked.slice());
    const owned = await callHook(ownedAmong, this.args({ filter, resourceIds }), this.settings.hookTimeoutMs, toIdSet);
    // Only the ids asked about are answered: an id the executor returns unasked owns nothing.
    for (const id of asked) this.record(owner, id, owned.has(id));
  }

  /**
   * Whether `owner` owns `id`: known answers first; then isOwner when the group has one (one record,
   * one point question); else the computed path for this one id.
   */
  ownedBy(owner: LoadedOwner, id: unknown): Promise<boolean> {
    const known = this.known(owner, id);
    if (known !== undefined) return Promise.resolve(known);
    let pending = this.pending.get(owner);
    if (pending === undefined) this.pending.set(owner, (pending = new Map<unknown, Promise<boolean>>()));
    let answer = pending.get(id);
    if (answer === undefined) {
      answer = this.ask(owner, id).then((owned) => {
        this.record(owner, id, owned);
        return owned;
      });
      pending.set(id, answer);
      // Once settled the answer lives in `answers` (or was an error, asked again next time).
      void answer.then(
        () => pending.delete(id),
        () => pending.delete(id),
      );
    }
    return answer;
  }

  private async ask(owner: LoadedOwner, id: unknown): Promise<boolean> {
    const { isOwner, listOwned, limitOwned, ownedAmong } = owner;
    if (isOwner !== undefined) return callHook(isOwner, this.args({ resourceId: id }), this.settings.hookTimeoutMs, expectBoolean);
    if (listOwned !== undefined) return (await this.listedBy(owner, listOwned)).has(id);
    if (limitOwned !== undefined && ownedAmong !== undefined) {
      await this.runOwnedAmong(owner, ownedAmong, limitOwned, [id]);
      return this.known(owner, id) === true;
    }
    // Tables that passed their shape check never get here; refuse rather than guess.
    throw new PermissionsUsageError(
      `Ownership group ${owner.id} has no way to decide ownership (no isOwner, listOwned, or limitOwned with an ownedAmong executor).`,
    );
  }

  /**
   * Answers, for `owner`, every id of `ids` at once: one ownedAmong call for the ids not answered yet, or
   * membership in listOwned; only a group with neither asks isOwner per id, at most
   * {@link MAX_HOOK_CALLS_IN_FLIGHT} at a time (through `limit`, shared by one operation). Afterwards
   * {@link OwnershipMemo.known} answers each of them.
   */
  async answerAll(owner: LoadedOwner, ids: readonly unknown[], limit: ConcurrencyLimit): Promise<void> {
    const { listOwned, limitOwned, ownedAmong } = owner;
    // The executor first: a rule's group has both, and asking about the ids at hand beats listing every owned record.
    if (limitOwned !== undefined && ownedAmong !== undefined) {
      await this.runOwnedAmong(owner, ownedAmong, limitOwned, ids);
      return;
    }
    if (listOwned !== undefined) {
      await this.listedBy(owner, listOwned);
      return;
    }
    const unknown = [...new Set(ids)].filter((id) => this.known(owner, id) === undefined);
    await Promise.all(unknown.map((id) => limit.run(() => this.ownedBy(owner, id))));
  }

  /** OR of the owners' answers for `id`, asked in order until one says yes. */
  async isOwn(owners: readonly LoadedOwner[], id: unknown): Promise<boolean> {
    for (const owner of owners) if (await this.ownedBy(owner, id)) return true;
    return false;
  }
}

/**
 * A concurrency limit for one operation's per-record hook calls.
 *
 * @example
 * ```ts
 * await memo.answerAll(owner, ids, operationLimit());
 * ```
 */
export function operationLimit(): ConcurrencyLimit {
  return new ConcurrencyLimit(MAX_HOOK_CALLS_IN_FLIGHT);
}
