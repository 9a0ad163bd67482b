/**
 * examples/express, the project docs/express.md ends with, built with TypeScript 7 (what `npm install typescript`
 * gives). The checks are those of every REST example: the same API over the same documents as examples/nestjs.
 */
import { describeRestExample } from './rest-example.js';

describeRestExample({ name: 'express', guide: 'docs/express.md', typescriptMajor: 7 });
