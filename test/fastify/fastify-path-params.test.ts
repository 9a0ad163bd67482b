/**
 * The parameters of a Fastify route path, read in the syntax of Fastify's router (find-my-way) — which the
 * integration kit's default reader (Express's syntax) would misread: an optional last parameter, the wildcard
 * `*`, regular expressions, two parameters in one segment, an escaped colon.
 */
import { describe, expect, it } from '@jest/globals';
import { routePathParams } from 'typed-permissions/integration';
import { fastifyPathParams } from '../../runtime/fastify/fastify-path-params.js';

const param = (name: string, optional = false, wildcard = false) => ({ name, optional, wildcard });

describe('fastifyPathParams', () => {
  it('reads every form of Fastify parameter, in order', () => {
    expect(fastifyPathParams('/documents')).toEqual([]);
    expect(fastifyPathParams('')).toEqual([]);
    expect(fastifyPathParams('/users/:userId/documents/:id')).toEqual([param('userId'), param('id')]);
    expect(fastifyPathParams('/documents/:id?')).toEqual([param('id', true)]);
    expect(fastifyPathParams('/documents/:id?/')).toEqual([param('id', true)]);
    expect(fastifyPathParams('/files/*')).toEqual([param('*', false, true)]);
    expect(fastifyPathParams('/numbered/:id(^\\d+)')).toEqual([param('id')]);
    expect(fastifyPathParams('/pairs/:id(^(\\d+)\\)$)/:name')).toEqual([param('id'), param('name')]);
    expect(fastifyPathParams('/flights/:from-:to')).toEqual([param('from'), param('to')]);
    expect(fastifyPathParams('/files/:name.:ext')).toEqual([param('name'), param('ext')]);
    expect(fastifyPathParams('/time/12::30/:id')).toEqual([param('id')]);
  });

  it("differs from the kit's default reader where Fastify's syntax is not Express's", () => {
    expect(routePathParams('/documents/:id?')).toEqual([param('id')]);
    expect(routePathParams('/files/*')).toEqual([]);
  });
});
