/**
 * The GraphQL type of a document. Every field is nullable: attributes the caller's permit does not allow
 * are left out of the picked object and resolve to `null` (a non-null field would turn that into an
 * error for the whole document instead).
 */
import { Field, Int, ObjectType } from '@nestjs/graphql';
import type { ExampleDocumentStatus } from './example-data.js';

/**
 * A document as the GraphQL API shows it: the columns of `documents`, each `null` when hidden.
 *
 * @example
 * ```graphql
 * { document(id: 10) { id title confidential } } # EMPLOYEE 1: { "id": 10, "title": "Document Title 10", "confidential": null }
 * ```
 */
@ObjectType('Document', { description: 'A document. A field the caller may not see is null.' })
export class DocumentModel {
  @Field(() => Int, { nullable: true })
  id?: number;

  @Field(() => String, { nullable: true })
  title?: string;

  @Field(() => String, { nullable: true, description: 'An ISO calendar date, YYYY-MM-DD.' })
  date?: string;

  @Field(() => String, { nullable: true })
  status?: ExampleDocumentStatus;

  @Field(() => String, { nullable: true })
  personal?: string;

  @Field(() => String, { nullable: true })
  confidential?: string;

  @Field(() => Int, { nullable: true, description: 'The id of the user who created the document.' })
  creatorId?: number;
}
