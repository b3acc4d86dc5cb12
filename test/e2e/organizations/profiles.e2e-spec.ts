import { DataSource } from 'typeorm';
import { Address } from '../../../src/profiles/addresses/address.entity';
import { createTestApp, TestApp } from '../../support/app';
import { loggedInAgent } from '../../support/users';
import { errorBody } from '../../support/errors';

const UNKNOWN = '6f1c1d1e-0000-4000-8000-000000000000';

describe('profiles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('the owner reads their profile with phone and address', async () => {
    const { agent, user } = await loggedInAgent(t);
    // Every user gets a personal address at registration.
    const address = await t
      .get<DataSource>(DataSource)
      .getRepository(Address)
      .findOneByOrFail({ userId: user.id });
    await agent
      .patch(`/v1/profile/${user.profileId}`)
      .send({ phone: '+33 6 12 34 56 78' })
      .expect(200);
    const res = await agent.get(`/v1/profile/${user.profileId}`).expect(200);
    expect(res.body).toMatchObject({
      id: user.profileId,
      user: user.id,
      phone: '+33612345678',
      address: address.id,
    });
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'address',
        'avatarFileId',
        'created',
        'firstName',
        'id',
        'lastName',
        'locale',
        'phone',
        'timezone',
        'title',
        'updated',
        'user',
      ].sort(),
    );
  });

  it('another logged-in user reads it without phone and address', async () => {
    const owner = await loggedInAgent(t);
    const other = await loggedInAgent(t);
    await owner.agent
      .patch(`/v1/profile/${owner.user.profileId}`)
      .send({ phone: '+14155550100', title: 'CFO' })
      .expect(200);
    const res = await other.agent.get(`/v1/profile/${owner.user.profileId}`).expect(200);
    expect(res.body).toMatchObject({ id: owner.user.profileId, user: owner.user.id, title: 'CFO' });
    expect(res.body).not.toHaveProperty('phone');
    expect(res.body).not.toHaveProperty('address');
  });

  it('the owner updates every field; omitted fields stay, null clears', async () => {
    const { agent, user } = await loggedInAgent(t);
    const avatar = '0b7e7c4e-8a61-4f8e-9a43-3f1d5b2c9a10';
    const res = await agent
      .patch(`/v1/profile/${user.profileId}`)
      .send({
        firstName: ' Ada ',
        lastName: 'Lovelace',
        phone: '+442071234567',
        title: 'Analyst',
        avatarFileId: avatar,
        locale: 'en-GB',
        timezone: 'Europe/London',
      })
      .expect(200);
    expect(res.body).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '+442071234567',
      title: 'Analyst',
      avatarFileId: avatar,
      locale: 'en-GB',
      timezone: 'Europe/London',
    });
    const cleared = await agent
      .patch(`/v1/profile/${user.profileId}`)
      .send({ avatarFileId: null, title: null })
      .expect(200);
    expect(cleared.body).toMatchObject({
      firstName: 'Ada',
      title: null,
      avatarFileId: null,
      timezone: 'Europe/London',
    });
    const read = await agent.get(`/v1/profile/${user.profileId}`).expect(200);
    expect(read.body).toMatchObject({ firstName: 'Ada', title: null, avatarFileId: null });
  });

  it.each([
    [{ phone: '0612345678' }, 'phone'],
    [{ phone: '+1 555' }, 'phone'],
    [{ phone: 14155550100 }, 'phone'],
    [{ avatarFileId: 'not-a-uuid' }, 'avatarFileId'],
    [{ locale: 'english please' }, 'locale'],
    [{ locale: 'en_US' }, 'locale'],
    [{ timezone: 'Mars/Olympus_Mons' }, 'timezone'],
    [{ timezone: 'GMT+25' }, 'timezone'],
    [{ firstName: 'x'.repeat(101) }, 'firstName'],
    [{ firstName: '' }, 'firstName'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const { agent, user } = await loggedInAgent(t);
    const res = await agent.patch(`/v1/profile/${user.profileId}`).send(body).expect(400);
    expect(res.body.error).toBe('Bad Request');
    expect(res.body.message).toContain(field);
  });

  it('accepts IANA aliases and BCP 47 tags with scripts', async () => {
    const { agent, user } = await loggedInAgent(t);
    const res = await agent
      .patch(`/v1/profile/${user.profileId}`)
      .send({ timezone: 'UTC', locale: 'zh-Hant-TW' })
      .expect(200);
    expect(res.body).toMatchObject({ timezone: 'UTC', locale: 'zh-Hant-TW' });
  });

  it('requires a session', async () => {
    const { user } = await loggedInAgent(t);
    await t.http.get(`/v1/profile/${user.profileId}`).expect(401).expect(errorBody(401));
    await t.http.patch(`/v1/profile/${user.profileId}`).send({ title: 'x' }).expect(401);
  });

  it('refuses another user’s profile with 403 and leaves it unchanged', async () => {
    const owner = await loggedInAgent(t);
    const other = await loggedInAgent(t);
    await other.agent
      .patch(`/v1/profile/${owner.user.profileId}`)
      .send({ title: 'Hacked' })
      .expect(403)
      .expect(errorBody(403));
    const res = await owner.agent.get(`/v1/profile/${owner.user.profileId}`).expect(200);
    expect(res.body.title).not.toBe('Hacked');
  });

  it('answers 404 for an unknown profile and 400 for a malformed id', async () => {
    const { agent } = await loggedInAgent(t);
    await agent.get(`/v1/profile/${UNKNOWN}`).expect(404).expect(errorBody(404));
    await agent.patch(`/v1/profile/${UNKNOWN}`).send({ title: 'x' }).expect(404);
    await agent.get('/v1/profile/nope').expect(400);
    await agent.patch('/v1/profile/nope').send({ title: 'x' }).expect(400);
  });
});
