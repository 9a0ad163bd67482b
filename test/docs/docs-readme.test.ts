/**
 * README.md's sh and console blocks run, as a reader pasting them would, against the packed tarballs in a throwaway
 * project (test/docs/doc-checks.ts says how): the quick start installs, compiles, builds and runs.
 */
import { describeDocumentBlocks, documentsOfSuite } from './doc-checks.js';

describeDocumentBlocks(documentsOfSuite('docs-readme.test.ts'));
