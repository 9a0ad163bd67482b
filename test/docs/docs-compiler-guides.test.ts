/**
 * The sh and console blocks of the guides to the compiler, the policy tests, reviewing a policy change and live policies run, as a reader pasting
 * them would, against the packed tarballs in a throwaway project (test/docs/doc-checks.ts says how).
 */
import { describeDocumentBlocks, documentsOfSuite } from './doc-checks.js';

describeDocumentBlocks(documentsOfSuite('docs-compiler-guides.test.ts'));
