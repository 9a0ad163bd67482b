/**
 * examples/fastify, the project docs/fastify.md ends with, built with TypeScript 7 (what `npm install typescript`
 * gives). The checks are those of every REST example: the same API over the same documents as examples/nestjs.
 */
import { describeRestExample } from './rest-example.js';

describeRestExample({ name: 'fastify', guide: 'docs/fastify.md', typescriptMajor: 7 });
