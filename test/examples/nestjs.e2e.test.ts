/**
 * examples/nestjs, the project docs/nestjs.md ends with, built with TypeScript 7 (what `npm install typescript`
 * gives): NestJS's legacy decorators and their metadata compile with it. The checks are those of every REST example.
 */
import { describeRestExample } from './rest-example.js';

describeRestExample({ name: 'nestjs', guide: 'docs/nestjs.md', typescriptMajor: 7 });
