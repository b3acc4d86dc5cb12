import { DataSource } from 'typeorm';
import { Address } from '../../../src/profiles/addresses/address.entity';
import { createTestApp, TestApp } from '../../support/app';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { errorBody } from '../../support/errors';

const UNKNOWN = '6f1c1d1e-0000-4000-8000-000000000000';

describe('addresses', () => {
  let t: TestApp;
  /** The personal address every user gets at registration, with a first line and country set. */
  const personalAddress = async (userId: string) => {
    const repo = t.get<DataSource>(DataSource).getRepository(Address);
    const address = await repo.findOneByOrFail({ userId });
    return repo.save({ ...address, line1: '1 Main St', country: 'US' });
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('a personal address', () => {
    it('is read and updated by its user; country is stored upper-case', async () => {
      const { agent, user } = await loggedInAgent(t);
      const address = await personalAddress(user.id);
      const read = await agent.get(`/v1/address/${address.id}`).expect(200);
      expect(read.body).toMatchObject({
        id: address.id,
        user: user.id,
        organization: null,
        line1: '1 Main St',
        country: 'US',
      });
      const res = await agent
        .patch(`/v1/address/${address.id}`)
        .send({
          line1: '10 Rue de Rivoli',
          line2: null,
          city: 'Paris',
          region: 'IDF',
          postalCode: '75001',
          country: 'fr',
        })
        .expect(200);
      expect(res.body).toMatchObject({
        line1: '10 Rue de Rivoli',
        line2: null,
        city: 'Paris',
        region: 'IDF',
        postalCode: '75001',
        country: 'FR',
      });
      const again = await agent.get(`/v1/address/${address.id}`).expect(200);
      expect(again.body.country).toBe('FR');
    });

    it.each([
      [{ country: 'FRA' }, 'country'],
      [{ country: 'XX' }, 'country'],
      [{ country: 12 }, 'country'],
      [{ postalCode: '1'.repeat(21) }, 'postalCode'],
      [{ line1: 'x'.repeat(201) }, 'line1'],
      [{ city: 5 }, 'city'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const { agent, user } = await loggedInAgent(t);
      const address = await personalAddress(user.id);
      const res = await agent.patch(`/v1/address/${address.id}`).send(body).expect(400);
      expect(res.body.error).toBe('Bad Request');
      expect(res.body.message).toContain(field);
    });

    it('is 404 to other users on GET (ids cannot be probed) and 403 on PATCH', async () => {
      const owner = await loggedInAgent(t);
      const other = await loggedInAgent(t);
      const address = await personalAddress(owner.user.id);
      await other.agent.get(`/v1/address/${address.id}`).expect(404).expect(errorBody(404));
      await other.agent.patch(`/v1/address/${address.id}`).send({ city: 'Nowhere' }).expect(403);
      const res = await owner.agent.get(`/v1/address/${address.id}`).expect(200);
      expect(res.body.city).toBeNull();
    });
  });

  describe('an organization’s address', () => {
    it('is read by any active member and updated by those who may edit the organization', async () => {
      const owner = await loggedInAgent(t);
      const org = await createOrg(owner.agent, 'Addressed Inc.');
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      const editor = await memberAgent(t, owner.agent, org.id, 'Editor');
      const read = await viewer.agent.get(`/v1/address/${org.address}`).expect(200);
      expect(read.body).toMatchObject({ id: org.address, organization: org.id, user: null });
      const res = await owner.agent
        .patch(`/v1/address/${org.address}`)
        .send({ city: 'Berlin', country: 'de' })
        .expect(200);
      expect(res.body).toMatchObject({ city: 'Berlin', country: 'DE' });
      // Editors and Viewers lack canEditOrganization.
      await viewer.agent.patch(`/v1/address/${org.address}`).send({ city: 'X' }).expect(403);
      await editor.agent.patch(`/v1/address/${org.address}`).send({ city: 'X' }).expect(403);
      const after = await editor.agent.get(`/v1/address/${org.address}`).expect(200);
      expect(after.body.city).toBe('Berlin');
    });

    it('is refused to a member of another organization', async () => {
      const a = await loggedInAgent(t);
      const b = await loggedInAgent(t);
      const orgA = await createOrg(a.agent, 'A');
      await createOrg(b.agent, 'B');
      await b.agent.get(`/v1/address/${orgA.address}`).expect(404);
      await b.agent.patch(`/v1/address/${orgA.address}`).send({ city: 'Stolen' }).expect(403);
    });

    it('is refused to a removed member', async () => {
      const owner = await loggedInAgent(t);
      const org = await createOrg(owner.agent, 'Leavers');
      const gone = await memberAgent(t, owner.agent, org.id, 'Admin');
      await gone.agent.get(`/v1/address/${org.address}`).expect(200);
      await owner.agent
        .delete(`/v1/organization/${org.id}/member/${gone.member.id}`)
        .expect((r: { status: number }) => {
          if (r.status >= 300) throw new Error(`remove member: ${r.status}`);
        });
      await gone.agent.get(`/v1/address/${org.address}`).expect(404);
      await gone.agent.patch(`/v1/address/${org.address}`).send({ city: 'X' }).expect(403);
    });
  });

  it('requires a session', async () => {
    const { user } = await loggedInAgent(t);
    const address = await personalAddress(user.id);
    await t.http.get(`/v1/address/${address.id}`).expect(401).expect(errorBody(401));
    await t.http.patch(`/v1/address/${address.id}`).send({ city: 'x' }).expect(401);
  });

  it('answers 404 for an unknown address and 400 for a malformed id', async () => {
    const { agent } = await loggedInAgent(t);
    await agent.get(`/v1/address/${UNKNOWN}`).expect(404);
    await agent.patch(`/v1/address/${UNKNOWN}`).send({ city: 'x' }).expect(404);
    await agent.get('/v1/address/nope').expect(400);
    await agent.patch('/v1/address/nope').send({ city: 'x' }).expect(400);
  });
});
