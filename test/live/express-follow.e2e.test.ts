/**
 * Express with a live policy: the application follows a source with `permissions.follow(source)`, and
 * `permit()` answers every request — granted or refused — on the policy active when it was decided, naming it
 * in `x-permissions-version`.
 */
import { describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { Permissions, permissionsFromTables, type User } from '../../runtime/permissions/index.js';
import { policyBundleOf, type PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { createPermitMiddleware, permitOf } from '../../runtime/express/index.js';
import { memorySource } from './memory-source.js';

function bundle(grant: string[]): PolicyBundle {
  const built = new Permissions({ resourceIdTypes: { doc: 'number' }, logger: { warn: () => undefined } })
    .addPermissions([{ roles: ['READER'], resource: 'doc', grant }])
    .build();
  return policyBundleOf(built.tables);
}
const [readable, unreadable] = [bundle(['read:any']), bundle(['update:any'])];

describe('express following a live policy', () => {
  it('answers on the active version and names it, granted and refused alike', async () => {
    const { source, publish } = memorySource({ bundle: readable, sequence: 1 });
    const permissions = permissionsFromTables<User<number>>(readable, { logger: { warn: () => undefined } });
    const live = await permissions.follow(source);
    const permit = createPermitMiddleware({ permissions, resource: 'doc', getUser: () => ({ id: 1, roles: ['READER'] }) });
    const app = express();
    app.get('/docs/:id', permit({ action: 'read' }), (req, res) => {
      res.json({ id: permitOf(req).resourceId });
    });

    const granted = await request(app).get('/docs/3');
    expect([granted.status, granted.body, granted.headers['x-permissions-version']]).toEqual([200, { id: 3 }, readable.version]);

    publish({ bundle: unreadable, sequence: 2 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const refused = await request(app).get('/docs/3');
    expect([refused.status, refused.headers['x-permissions-version']]).toEqual([403, unreadable.version]);
    await live.close();
  });
});
