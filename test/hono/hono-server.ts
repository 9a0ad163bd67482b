/**
 * A Hono application served by @hono/node-server on loopback, for the tests that ask it over real HTTP.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';

/** A started server: its address and how to stop it. */
export interface HonoServer {
  /** `http://127.0.0.1:<port>`. */
  readonly baseUrl: string;
  close(): Promise<void>;
}

/**
 * Serves `app` on a free loopback port; resolves once it listens (at most 10 s).
 *
 * @example
 * ```ts
 * const server = await serveOnLoopback(app);
 * await fetch(`${server.baseUrl}/documents/1`);
 * await server.close();
 * ```
 */
export function serveOnLoopback(app: Hono<any, any, any>): Promise<HonoServer> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the Hono server did not listen within 10 s')), 10_000);
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => {
      clearTimeout(timer);
      resolve({
        baseUrl: `http://127.0.0.1:${info.port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            // Keep-alive connections would hold close() open: end them.
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
            server.close((error) => (error === undefined ? done() : fail(error)));
          }),
      });
    });
  });
}

/** A response, as the tests compare it. */
export interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Headers;
}

/**
 * Sends a request (bounded to 10 s) and reads its body: JSON when it is JSON, else the text.
 *
 * @example
 * ```ts
 * const { status, body } = await ask(server.baseUrl, '/documents/2', { headers: { 'x-user-id': '1' } });
 * ```
 */
export async function ask(baseUrl: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').startsWith('application/json');
  return { status: response.status, body: json ? (JSON.parse(text) as unknown) : text, headers: response.headers };
}
