/**
 * examples/hono, the project docs/hono.md ends with — a Hono application served on Node.js by @hono/node-server —
 * built with TypeScript 7 (what `npm install typescript` gives). The checks are those of every REST example: the
 * same API over the same documents as examples/nestjs and examples/express, so the same answers.
 */
import { describeRestExample } from './rest-example.js';

describeRestExample({ name: 'hono', guide: 'docs/hono.md', typescriptMajor: 7 });
