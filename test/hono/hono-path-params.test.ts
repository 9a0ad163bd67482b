/**
 * Hono route paths are read as Hono's routers match them: the names of `:name`, `:name{pattern}` (braces inside the
 * pattern too) and a trailing `:name?`, and whether a wildcard `*` follows the last parameter. Checked against Hono
 * itself: for each path, a request the route matches must bring exactly the parameters the reader names (an
 * optional one may be absent).
 */
import { describe, expect, it } from '@jest/globals';
import { Hono } from 'hono';
import { honoPathParams } from '../../runtime/hono/hono-path-params.js';

const param = (name: string, optional = false) => ({ name, optional, wildcard: false });

describe('honoPathParams', () => {
  it('reads names, patterns, a trailing optional parameter and wildcards', () => {
    expect(honoPathParams('/users/:userId/documents/:id')).toEqual({ params: [param('userId'), param('id')], endsInWildcard: false });
    expect(honoPathParams('/posts/:date{[0-9]+}/:title{[a-z/]+}')).toEqual({ params: [param('date'), param('title')], endsInWildcard: false });
    expect(honoPathParams('/documents/:id?')).toEqual({ params: [param('id', true)], endsInWildcard: false });
    expect(honoPathParams('/a/:x?/:y?')).toEqual({ params: [param('x', true), param('y', true)], endsInWildcard: false });
    expect(honoPathParams('/documents/:id{[0-9]+}?')).toEqual({ params: [param('id', true)], endsInWildcard: false });
    // Braces inside a pattern (quantifiers): the pattern ends at the brace that closes its own.
    expect(honoPathParams('/documents/:id{[0-9]{1,3}}')).toEqual({ params: [param('id')], endsInWildcard: false });
    expect(honoPathParams('/codes/:code{[a-z]{2}-[0-9]{2,}}/:id')).toEqual({ params: [param('code'), param('id')], endsInWildcard: false });
    expect(honoPathParams('/*')).toEqual({ params: [], endsInWildcard: true });
    expect(honoPathParams('/documents/:id/*')).toEqual({ params: [param('id')], endsInWildcard: true });
    expect(honoPathParams('/wild/*/card/:id')).toEqual({ params: [param('id')], endsInWildcard: false });
    expect(honoPathParams('/documents')).toEqual({ params: [], endsInWildcard: false });
  });

  it('names what Hono hands the handler, for every path form (differential against the router)', async () => {
    const cases: [path: string, url: string][] = [
      ['/users/:userId/documents/:id', '/users/7/documents/9'],
      ['/posts/:date{[0-9]+}/:title{[a-z]+}', '/posts/2024/hello'],
      ['/files/:name{.+\\.png}', '/files/a/b.png'],
      ['/documents/:id?', '/documents/3'],
      ['/documents/:id?', '/documents'],
      ['/a/:x?/:y?', '/a/1/2'],
      ['/documents/:id/*', '/documents/4/comments/5'],
      ['/wild/*/card/:id', '/wild/x/card/8'],
      ['/dotted/:file.json', '/dotted/report.json'],
      ['/documents/:id{[0-9]{1,3}}', '/documents/12'],
      ['/codes/:code{[a-z]{2}-[0-9]{2,}}/:id', '/codes/ab-123/7'],
    ];
    for (const [path, url] of cases) {
      const app = new Hono();
      app.get(path, (c) => c.json(Object.keys(c.req.param()).filter((name) => c.req.param(name) !== undefined)));
      const response = await app.request(url);
      expect({ path, url, status: response.status }).toEqual({ path, url, status: 200 });
      const given = (await response.json()) as string[];
      const read = honoPathParams(path).params;
      const required = read.filter((one) => !one.optional).map((one) => one.name);
      expect({ path, url, missing: required.filter((name) => !given.includes(name)) }).toEqual({ path, url, missing: [] });
      expect({ path, url, unread: given.filter((name) => !read.some((one) => one.name === name)) }).toEqual({ path, url, unread: [] });
    }
  });
});
