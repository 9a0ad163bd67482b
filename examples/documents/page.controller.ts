/**
 * Serves the example page (`GET /`, `/page.css`, `/app.js`) from the folder `build-page.ts` wrote, read
 * once at start. Every answer carries a strict Content-Security-Policy: scripts and styles from this
 * origin only, no inline code, no eval — the browser client runs under it.
 */
import { Controller, Get, HttpCode, Inject, NotFoundException, Res, type OnModuleInit } from '@nestjs/common';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PAGE_FILES } from './build-page.js';

/** The injection token of the folder holding the built page (`undefined`: the page is not served). */
export const PAGE_DIR = Symbol('example:page-dir');

/** The policy the page is served with. */
export const PAGE_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const TYPES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'page.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
};

/** The parts of an express response the controller writes. */
interface PageResponse {
  setHeader(name: string, value: string): void;
  send(body: string): void;
}

/**
 * @example
 * ```ts
 * @Module({ controllers: [PageController], providers: [{ provide: PAGE_DIR, useValue: 'dist/page' }] })
 * ```
 */
@Controller()
export class PageController implements OnModuleInit {
  private readonly files = new Map<string, string>();

  constructor(@Inject(PAGE_DIR) private readonly pageDir: string | undefined) {}

  /** Reads the built page once; a configured folder without it stops the start (run `npm run build`). */
  async onModuleInit(): Promise<void> {
    if (this.pageDir === undefined) return;
    for (const file of Object.values(PAGE_FILES)) this.files.set(file, await readFile(join(this.pageDir, file), 'utf8'));
  }

  @Get()
  index(@Res() response: PageResponse): void {
    this.send(response, PAGE_FILES['/']);
  }

  @Get('page.css')
  styles(@Res() response: PageResponse): void {
    this.send(response, PAGE_FILES['/page.css']);
  }

  @Get('app.js')
  script(@Res() response: PageResponse): void {
    this.send(response, PAGE_FILES['/app.js']);
  }

  /** No icon: an empty answer rather than a 404 in the browser's console. */
  @Get('favicon.ico')
  @HttpCode(204)
  icon(): void {}

  private send(response: PageResponse, file: string): void {
    const body = this.files.get(file);
    if (body === undefined) throw new NotFoundException('The example page is not built here (npm run build writes it to dist/page).');
    response.setHeader('Content-Type', TYPES[file] ?? 'application/octet-stream');
    response.setHeader('Content-Security-Policy', PAGE_CONTENT_SECURITY_POLICY);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Cache-Control', 'no-cache');
    response.send(body);
  }
}
