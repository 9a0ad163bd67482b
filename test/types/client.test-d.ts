/**
 * Type tests of the browser client, checked by `tsc --noEmit`. Typed with the generated
 * `Schema`, `createClient<Schema>(slice)` accepts only the resources and their actions;
 * `owned` is a boolean or a list of group numbers; `pick` returns `Partial<TItem>`. Untyped, it takes any string.
 */
import type { Schema } from '../../generated/index.js';
import { createClient, type Owned, type PermissionSlice, type PermissionsClient } from '../../runtime/client/index.js';
import type { Equal, Expect } from './type-assert.js';

declare const slice: PermissionSlice;

interface Document {
  readonly id: number;
  readonly title: string;
  readonly confidential: string;
}
declare const document: Document;

const client = createClient<Schema>(slice);
const untyped = createClient(slice);

export function valid(): void {
  const canRead: boolean = client.can('read', 'document');
  const canOwned: boolean = client.can('update', 'document', { owned: [0, 2] });
  const canTrue: boolean = client.can('review', 'document', { owned: true });
  const canAny: boolean = client.canAny('list', 'document');
  const canOwn: boolean = client.canOwn('delete', 'document');
  const patterns: readonly string[] = client.attributes('read', 'document', { owned: false });
  const version: string = client.version;
  client.can('create', 'document', {});
  client.canAny('list', 'decision');
  client.can('create', 'document', { owned: undefined });
  void [canRead, canOwned, canTrue, canAny, canOwn, patterns, version];
}

export function invalid(): void {
  // @ts-expect-error: 'documents' is not a resource (misspelt)
  client.can('read', 'documents');
  // @ts-expect-error: 'approve' is not an action of 'document'
  client.can('approve', 'document');
  // @ts-expect-error: 'approve' is not an action of 'document', for canAny either
  client.canAny('approve', 'document');
  // @ts-expect-error: 'update' is an action of 'document', not of 'decision', which declares only 'list' and 'read'
  client.can('update', 'decision');
  // @ts-expect-error: 'publish' is not an action of 'document', for pick either
  client.pick('publish', 'document', document);
  // @ts-expect-error: 'folder' is not a resource, for attributes either
  client.attributes('read', 'folder');
  // @ts-expect-error: owned is a boolean or a list of group numbers, not a string
  client.can('read', 'document', { owned: 'yes' });
  // @ts-expect-error: group numbers are numbers, not strings
  client.can('read', 'document', { owned: ['0'] });
  // @ts-expect-error: owned is a boolean or a list, not one group number
  client.pick('read', 'document', document, { owned: 0 });
  // @ts-expect-error: pick takes an object, not a primitive
  client.pick('read', 'document', 'a title');
  // @ts-expect-error: createClient takes a slice, not an arbitrary object
  createClient<Schema>({ format: 2, version: 'v', plans: [], grants: [] });
}

export function untypedAcceptsAnyString(): void {
  const can: boolean = untyped.can('anything', 'whatever', { owned: [1] });
  const picked = untyped.pick('approve', 'folder', document);
  void can;
  void picked;
}

export const picked = client.pick('read', 'document', document, { owned: [0] });
export const untypedPicked = untyped.pick('approve', 'folder', document);

export type Checks = [
  Expect<Equal<typeof picked, Partial<Document>>>,
  Expect<Equal<typeof untypedPicked, Partial<Document>>>,
  Expect<Equal<Owned, boolean | readonly number[]>>,
  Expect<Equal<typeof client, PermissionsClient<Schema>>>,
  Expect<Equal<Parameters<typeof client.can<'document'>>[0], 'create' | 'delete' | 'list' | 'read' | 'review' | 'update'>>,
  Expect<Equal<Parameters<typeof untyped.can<string>>[0], string>>,
];
