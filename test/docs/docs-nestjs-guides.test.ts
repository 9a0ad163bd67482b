/**
 * The sh and console blocks of the NestJS, GraphQL and integration kit guides run, as a reader pasting them would,
 * against the packed tarballs in a throwaway project (test/docs/doc-checks.ts says how).
 */
import { describeDocumentBlocks, documentsOfSuite } from './doc-checks.js';

describeDocumentBlocks(documentsOfSuite('docs-nestjs-guides.test.ts'));
