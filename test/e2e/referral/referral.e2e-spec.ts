import { DataSource } from 'typeorm';
import { FakeBilling } from '../../fakes/billing';
import { TestApp } from '../../support/app';
import { errorBody } from '../../support/errors';
import { eventually } from '../../support/eventually';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { balanceOf, fund } from '../../support/credit';
import {
  paid,
  redemptionsSettled,
  referralApp,
  subscribedOrg,
  subscriptionSeen,
  UNKNOWN,
} from './referral-fixtures';

describe('referral program (spec 4.8)', () => {
  let t: TestApp;
  let fake: FakeBilling;
  let ds: DataSource;
  beforeAll(async () => {
    ({ t, fake, ds } = await referralApp());
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const codeIn = (text: string) => /Referral code: ([A-Z0-9]+)/.exec(text)![1];

  it('invite → register with the code → subscribe and pay → card → reveal → credit → redeemed on invoices', async () => {
    const referrer = await loggedInAgent(t);
    const inviteeEmail = `invitee-${Date.now()}@example.test`;
    const sent = await referrer.agent
      .post('/v1/invitation/send')
      .send({ email: inviteeEmail, message: 'Come and see' })
      .expect(201);
    expect(sent.body).toEqual({
      id: expect.any(String),
      email: inviteeEmail,
      state: 'sent',
      created: expect.any(String),
    });
    const mail = await t.smtp.nextMail(inviteeEmail);
    expect(mail.text).toContain('Come and see');
    const code = codeIn(mail.text);
    const overview = await referrer.agent.get(`/v1/referral/${referrer.user.entityId}`).expect(200);
    expect(overview.body).toMatchObject({ referralCode: code, balance: '0.00', currency: 'USD' });

    // Registering with the code links the invitee; the invitation follows.
    const invitee = await loggedInAgent(t, {
      email: inviteeEmail,
      referralCode: code.toLowerCase(),
    });
    await eventually(async () => {
      const list = await referrer.agent.get('/v1/invitation').expect(200);
      return list.body[0]?.state === 'signed_up';
    });
    const stats = await referrer.agent.get('/v1/waitlistStats').expect(200);
    expect(stats.body).toMatchObject({ referralCount: 1, position: expect.any(Number) });

    // The invitee's organization subscribes and pays: the referrer earns one card, its value hidden.
    const org = await subscribedOrg(invitee.agent);
    await paid(t, fake, org);
    const cards = await eventually(async () => {
      const res = await referrer.agent.get('/v1/card').expect(200);
      return res.body.length === 1 ? res.body : null;
    });
    expect(cards).toEqual([
      { id: expect.any(String), revealed: false, value: null, created: expect.any(String) },
    ]);
    const list = await referrer.agent.get('/v1/invitation').expect(200);
    expect(list.body.map((i: { state: string }) => i.state)).toEqual(['subscribed']);
    // A second organization of the same invitee earns nothing more.
    await paid(t, fake, await subscribedOrg(invitee.agent, 'Second Inc.'));
    await new Promise((r) => setTimeout(r, 300));
    expect((await referrer.agent.get('/v1/card').expect(200)).body).toHaveLength(1);

    // Revealing shows the value and credits it once, to the referrer's personal entity.
    const reveal = await referrer.agent
      .post('/v1/reward')
      .send({ rewardId: cards[0].id })
      .expect(200);
    expect(reveal.body).toEqual({ ...cards[0], revealed: true, value: '25.00' });
    const again = await referrer.agent
      .post('/v1/reward')
      .send({ rewardId: cards[0].id })
      .expect(200);
    expect(again.body).toEqual(reveal.body);
    expect(await balanceOf(ds, referrer.user.entityId)).toBe('25.00');
    const history = await referrer.agent
      .get(`/v1/entity/${referrer.user.entityId}/history`)
      .expect(200);
    expect(history.body).toEqual([
      expect.objectContaining({ kind: 'grant', amount: '25.00', movement: cards[0].id }),
    ]);

    // Credit sent to the invitee's organization is applied to its invoices at once.
    const before = fake.adjustments.length;
    const transfer = await referrer.agent
      .post('/v1/credit/transfer')
      .send({ fromEntity: referrer.user.entityId, toEntity: org.entity, amount: 10 })
      .expect(201);
    expect(transfer.body).toEqual({
      id: expect.any(String),
      fromEntity: referrer.user.entityId,
      toEntity: org.entity,
      amount: '10.00',
      currency: 'USD',
      created: expect.any(String),
    });
    const orgHistory = await invitee.agent.get(`/v1/entity/${org.entity}/history`).expect(200);
    expect(
      orgHistory.body.map((e: { kind: string; amount: string }) => [e.kind, e.amount]),
    ).toEqual([
      ['redemption', '-10.00'],
      ['transfer_in', '10.00'],
    ]);
    const made = fake.adjustments.slice(before);
    expect(made.map((a) => a.amount_in_cents)).toEqual([-1000]);
    expect(fake.adjustmentTokens.get(made[0].id)).toBe(orgHistory.body[0].id);
    const summary = await invitee.agent.get(`/v1/organization/${org.id}/referral`).expect(200);
    expect(summary.body).toEqual({
      organization: org.id,
      entity: org.entity,
      currency: 'USD',
      balance: '0.00',
      received: '10.00',
      sent: '0.00',
      redeemed: '10.00',
      movements: 2,
    });
    expect(await balanceOf(ds, referrer.user.entityId)).toBe('15.00');
  });

  it('earns the card on the invitee organization’s first successful payment, not on its signup, once', async () => {
    const referrer = await loggedInAgent(t);
    const inviteeEmail = `payer-${Date.now()}@example.test`;
    await referrer.agent
      .post('/v1/invitation/send')
      .send({ email: inviteeEmail, message: 'Join' })
      .expect(201);
    const code = codeIn((await t.smtp.nextMail(inviteeEmail)).text);
    const invitee = await loggedInAgent(t, { email: inviteeEmail, referralCode: code });
    await eventually(async () => {
      const list = await referrer.agent.get('/v1/invitation').expect(200);
      return list.body[0]?.state === 'signed_up';
    });
    const cards = async () => (await referrer.agent.get('/v1/card').expect(200)).body;

    // A signup that never pays (a trial, a declined card) earns nothing.
    const org = await subscribedOrg(invitee.agent);
    await subscriptionSeen(t, org.id);
    expect(await cards()).toEqual([]);
    await paid(t, fake, org, { event: 'payment_failure' });
    await paid(t, fake, org, { cents: 0 });
    expect(await cards()).toEqual([]);
    expect((await referrer.agent.get('/v1/invitation').expect(200)).body[0].state).toBe(
      'signed_up',
    );

    // Its first successful payment earns the card, in the webhook's own transaction.
    await paid(t, fake, org);
    expect(await cards()).toEqual([expect.objectContaining({ revealed: false, value: null })]);
    const [card] = await ds.query(
      'SELECT organization_id, invitee_user_id FROM reward_card WHERE user_id = $1',
      [referrer.user.id],
    );
    expect(card).toEqual({ organization_id: org.id, invitee_user_id: invitee.user.id });
    expect((await referrer.agent.get('/v1/invitation').expect(200)).body[0].state).toBe(
      'subscribed',
    );
    // Renewals, and the payments of another organization of the same invitee, earn no more.
    await paid(t, fake, org, { event: 'renewal_success' });
    const second = await subscribedOrg(invitee.agent, 'Second Payer Inc.');
    await paid(t, fake, second);
    await subscriptionSeen(t, second.id);
    expect(await cards()).toHaveLength(1);
  });

  it('applies credit waiting on an organization when its subscription starts', async () => {
    const giver = await loggedInAgent(t);
    await fund(ds, giver.user.entityId, '30.00');
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    await giver.agent
      .post('/v1/credit/transfer')
      .send({ fromEntity: giver.user.entityId, toEntity: org.entity, amount: '12.50' })
      .expect(201);
    // No subscription yet: the credit waits.
    expect(await balanceOf(ds, org.entity)).toBe('12.50');
    const before = fake.adjustments.length;
    await owner.agent
      .post(`/v1/organization/${org.id}/subscription`)
      .send({ productHandle: 'starter' })
      .expect(201);
    await redemptionsSettled(t, org.entity);
    expect(await balanceOf(ds, org.entity)).toBe('0.00');
    expect(fake.adjustments.slice(before).map((a) => a.amount_in_cents)).toEqual([-1250]);
  });

  it('retries a redemption the provider could not take, crediting once', async () => {
    const giver = await loggedInAgent(t);
    await fund(ds, giver.user.entityId, '5.00');
    const owner = await loggedInAgent(t);
    const org = await subscribedOrg(owner.agent);
    // Its own redemption (of nothing) done first, so only the transfer's meets the failures.
    await subscriptionSeen(t, org.id);
    const before = fake.adjustments.length;
    // The client's own attempts (one and two retries) all fail: the queue retries later.
    fake.failNext(503, { path: /adjustments/, times: 3 });
    await giver.agent
      .post('/v1/credit/transfer')
      .send({ fromEntity: giver.user.entityId, toEntity: org.entity, amount: '5' })
      .expect(201);
    // Reserved before the provider was called, and left pending for the queue.
    expect(await balanceOf(ds, org.entity)).toBe('0.00');
    const [pending] = await ds.query(
      'SELECT id, state, amount FROM credit_redemption WHERE entity_id = $1',
      [org.entity],
    );
    expect(pending).toEqual({ id: expect.any(String), state: 'pending', amount: '5.00' });
    expect(fake.adjustments.slice(before)).toEqual([]);
    const [settled] = await redemptionsSettled(t, org.entity, 90_000);
    expect(settled).toEqual({ id: pending.id, state: 'applied' });
    const made = fake.adjustments.slice(before);
    expect(made.map((a) => a.amount_in_cents)).toEqual([-500]);
    // Sent again with the same id: the provider's uniqueness token.
    expect(fake.adjustmentTokens.get(made[0].id)).toBe(pending.id);
  }, 100_000);

  it('gives back a redemption the provider refused (a reversing entry), and applies it later', async () => {
    const giver = await loggedInAgent(t);
    await fund(ds, giver.user.entityId, '9.00');
    const owner = await loggedInAgent(t);
    const org = await subscribedOrg(owner.agent);
    await subscriptionSeen(t, org.id);
    const before = fake.adjustments.length;
    fake.failNext(422, { path: /adjustments/, body: { errors: ['Subscription: is on hold.'] } });
    await giver.agent
      .post('/v1/credit/transfer')
      .send({ fromEntity: giver.user.entityId, toEntity: org.entity, amount: '4' })
      .expect(201);
    const [refused] = await redemptionsSettled(t, org.entity);
    expect(refused.state).toBe('reversed');
    expect(await balanceOf(ds, org.entity)).toBe('4.00');
    const history = await owner.agent.get(`/v1/entity/${org.entity}/history`).expect(200);
    expect(history.body.map((e: { kind: string; amount: string }) => [e.kind, e.amount])).toEqual([
      ['redemption_reversal', '4.00'],
      ['redemption', '-4.00'],
      ['transfer_in', '4.00'],
    ]);
    expect(history.body[0].movement).toBe(history.body[1].movement);
    const summary = await owner.agent.get(`/v1/organization/${org.id}/referral`).expect(200);
    expect(summary.body).toMatchObject({ balance: '4.00', received: '4.00', redeemed: '0.00' });
    expect(fake.adjustments.slice(before)).toEqual([]);
    // The next credit arriving takes the whole balance.
    await giver.agent
      .post('/v1/credit/transfer')
      .send({ fromEntity: giver.user.entityId, toEntity: org.entity, amount: '5' })
      .expect(201);
    await redemptionsSettled(t, org.entity);
    expect(await balanceOf(ds, org.entity)).toBe('0.00');
    expect(fake.adjustments.slice(before).map((a) => a.amount_in_cents)).toEqual([-900]);
  });

  it('applies concurrent transfers into an organization each once, never twice', async () => {
    const owner = await loggedInAgent(t);
    const org = await subscribedOrg(owner.agent);
    await subscriptionSeen(t, org.id);
    const givers = await Promise.all(Array.from({ length: 8 }, () => loggedInAgent(t)));
    for (const giver of givers) await fund(ds, giver.user.entityId, '2.00');
    const before = fake.adjustments.length;
    const answers = await Promise.all(
      givers.map((giver) =>
        giver.agent
          .post('/v1/credit/transfer')
          .send({ fromEntity: giver.user.entityId, toEntity: org.entity, amount: '1.25' }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    const redemptions = await redemptionsSettled(t, org.entity);
    expect(redemptions.every((r: { state: string }) => r.state === 'applied')).toBe(true);
    expect(await balanceOf(ds, org.entity)).toBe('0.00');
    const made = fake.adjustments.slice(before);
    expect(made.reduce((sum, a) => sum + a.amount_in_cents, 0)).toBe(-1000);
    expect(new Set(made.map((a) => fake.adjustmentTokens.get(a.id)))).toEqual(
      new Set(redemptions.map((r: { id: string }) => r.id)),
    );
  });

  describe('POST /v1/invitation/send and GET /v1/invitation', () => {
    it('mails again only after 24 hours (409 before, 200 after), per referrer', async () => {
      const referrer = await loggedInAgent(t);
      const email = `twice-${Date.now()}@example.test`;
      const first = await referrer.agent
        .post('/v1/invitation/send')
        .send({ email, message: 'Hi' })
        .expect(201);
      await t.smtp.nextMail(email);
      await referrer.agent
        .post('/v1/invitation/send')
        .send({ email: email.toUpperCase(), message: 'Hi again' })
        .expect(409);
      expect(t.smtp.hasUnread(email)).toBe(false);
      await ds.query(
        `UPDATE referral_invitation SET last_sent_at = now() - interval '25 hours' WHERE id = $1`,
        [first.body.id],
      );
      const again = await referrer.agent
        .post('/v1/invitation/send')
        .send({ email, message: 'Hi again' })
        .expect(200);
      expect(again.body).toEqual(first.body);
      expect((await t.smtp.nextMail(email)).text).toContain('Hi again');
      // Another referrer may invite the same address.
      const other = await loggedInAgent(t);
      await other.agent.post('/v1/invitation/send').send({ email, message: 'Me too' }).expect(201);
      expect((await referrer.agent.get('/v1/invitation').expect(200)).body).toEqual([first.body]);
    });

    it('refuses bad input (400) and no session (401), sending nothing', async () => {
      const referrer = await loggedInAgent(t);
      for (const body of [
        {},
        { email: 'not-an-address', message: 'x' },
        { email: 'a@example.test', message: 'x'.repeat(1001) },
        { email: referrer.email, message: 'me' },
        { email: 'a@example.test', message: 42 },
      ]) {
        await referrer.agent.post('/v1/invitation/send').send(body).expect(400);
      }
      expect((await referrer.agent.get('/v1/invitation').expect(200)).body).toEqual([]);
      await t.http
        .post('/v1/invitation/send')
        .send({ email: 'a@example.test', message: 'x' })
        .expect(401);
      await t.http.get('/v1/invitation').expect(401);
    });

    it('limits invitation mails per account a day (429 with Retry-After)', async () => {
      const referrer = await loggedInAgent(t);
      for (let i = 0; i < 50; i++) {
        await referrer.agent
          .post('/v1/invitation/send')
          .send({ email: `bulk-${i}-${referrer.user.id}@example.test`, message: 'Hi' })
          .expect(201);
      }
      const refused = await referrer.agent
        .post('/v1/invitation/send')
        .send({ email: `bulk-50-${referrer.user.id}@example.test`, message: 'Hi' })
        .expect(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await referrer.agent.get('/v1/invitation').expect(200)).body).toHaveLength(50);
    });

    it('mails one address at most 3 times in 30 days whoever sends (429 with Retry-After and X-RateLimit-*), revealing no account', async () => {
      const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      const stranger = `nobody-${tag}@example.test`;
      // An address with an account (its verification mail read), and one without.
      const member = await loggedInAgent(t, {
        email: `somebody-${tag}@example.test`,
        smtp: t.smtp,
      });
      const referrers = await Promise.all([1, 2, 3, 4, 5].map(() => loggedInAgent(t)));
      const invite = (i: number, email: string) =>
        referrers[i].agent.post('/v1/invitation/send').send({ email, message: 'Hi' });
      const refusals: Record<string, string>[] = [];
      for (const email of [stranger, member.email]) {
        for (let i = 0; i < 3; i++) await invite(i, email).expect(201);
        for (let i = 0; i < 3; i++) await t.smtp.nextMail(email);
        // A fourth referrer, and a referrer mailing again a day later: refused alike.
        const refused = await invite(3, email).expect(429);
        expect(refused.body).toEqual({ error: 'Too Many Requests', message: expect.any(String) });
        refusals.push(refused.headers);
        await ds.query(
          `UPDATE referral_invitation SET last_sent_at = now() - interval '25 hours'
            WHERE email = $1`,
          [email],
        );
        await invite(0, email).expect(429);
        expect(t.smtp.hasUnread(email)).toBe(false);
      }
      // The same answer whether or not the address has an account.
      for (const headers of refusals) {
        const retryAfter = Number(headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(29 * 24 * 3600);
        expect(retryAfter).toBeLessThanOrEqual(30 * 24 * 3600);
        expect(headers['x-ratelimit-limit']).toBe('3');
        expect(headers['x-ratelimit-remaining']).toBe('0');
        expect(Number(headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
      }
      expect(refusals[0]['x-ratelimit-limit']).toBe(refusals[1]['x-ratelimit-limit']);
      // Refused mails count against no one: the fourth referrer invites another address at once.
      await invite(3, `other-${tag}@example.test`).expect(201);
      expect((await referrers[3].agent.get('/v1/invitation').expect(200)).body).toHaveLength(1);
      // 30 days after the oldest mail, one more may go out.
      await ds.query(
        `UPDATE referral_invitation_mail SET sent_at = sent_at - interval '30 days'
          WHERE id = (SELECT id FROM referral_invitation_mail
                       WHERE address_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')
                       ORDER BY sent_at LIMIT 1)`,
        [stranger],
      );
      await invite(4, stranger).expect(201);
      await t.smtp.nextMail(stranger);
      await invite(3, stranger).expect(429);
    });

    it('an unknown code registers all the same and links no one', async () => {
      const { user } = await loggedInAgent(t, { referralCode: 'NO-SUCH-CODE' });
      await eventually(async () => {
        const [row] = await ds.query(
          `SELECT count(*)::int AS n FROM processed_event p JOIN outbox_event e ON e.id = p.event_id
            WHERE p.consumer = 'referral' AND e.type = 'user.registered' AND e.actor_user_id = $1`,
          [user.id],
        );
        return row.n === 1;
      });
      const links = await ds.query('SELECT * FROM referral_link WHERE invitee_user_id = $1', [
        user.id,
      ]);
      expect(links).toEqual([]);
      const [event] = await ds.query(
        `SELECT organization_id, data FROM outbox_event WHERE type = 'user.registered' AND actor_user_id = $1`,
        [user.id],
      );
      expect(event.organization_id).toBeNull();
      expect(event.data.object).toMatchObject({ id: user.id, referralCode: 'NO-SUCH-CODE' });
      const entries = await ds.query(
        'SELECT count(*)::int AS n FROM activity_action WHERE user_id = $1',
        [user.id],
      );
      expect(entries[0].n).toBe(0);
    });
  });

  describe('POST /v1/credit/transfer', () => {
    it('50 concurrent transfers out of one balance never overdraw and conserve the total', async () => {
      const from = await loggedInAgent(t);
      const to = await loggedInAgent(t);
      await fund(ds, from.user.entityId, '100.00');
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          from.agent
            .post('/v1/credit/transfer')
            .send({ fromEntity: from.user.entityId, toEntity: to.user.entityId, amount: '3.00' }),
        ),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(33);
      expect(statuses.filter((s) => s === 400)).toHaveLength(17);
      for (const refused of answers.filter((a) => a.status === 400)) {
        expect(refused.body).toEqual({ error: 'Bad Request', key: 'insufficientCredit' });
      }
      expect(await balanceOf(ds, from.user.entityId)).toBe('1.00');
      expect(await balanceOf(ds, to.user.entityId)).toBe('99.00');
      const [sums] = await ds.query(
        `SELECT sum(amount)::text AS total, count(*)::int AS n FROM credit_entry WHERE entity_id = ANY($1)`,
        [[from.user.entityId, to.user.entityId]],
      );
      expect(sums).toEqual({ total: '100.00', n: 67 });
    });

    it('transfers both ways at once without deadlock', async () => {
      const a = await loggedInAgent(t);
      const b = await loggedInAgent(t);
      await fund(ds, a.user.entityId, '20.00');
      await fund(ds, b.user.entityId, '20.00');
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? a : b).agent.post('/v1/credit/transfer').send({
            fromEntity: (i % 2 ? a : b).user.entityId,
            toEntity: (i % 2 ? b : a).user.entityId,
            amount: '1',
          }),
        ),
      );
      expect(answers.map((r) => r.status)).toEqual(Array(20).fill(201));
      expect(await balanceOf(ds, a.user.entityId)).toBe('20.00');
    });

    it('refuses bad amounts and bodies (400), more than the balance (insufficientCredit), changing nothing', async () => {
      const from = await loggedInAgent(t);
      const to = await loggedInAgent(t);
      await fund(ds, from.user.entityId, '5.00');
      const send = (body: object) => from.agent.post('/v1/credit/transfer').send(body);
      const base = { fromEntity: from.user.entityId, toEntity: to.user.entityId };
      for (const amount of [0, '0.00', -1, '1.005', 'ten', 1e21, null]) {
        await send({ ...base, amount }).expect(400);
      }
      await send({ toEntity: to.user.entityId, amount: 1 }).expect(400);
      await send({ fromEntity: from.user.entityId, amount: 1 }).expect(400);
      await send({ ...base, toEntity: 'nope', amount: 1 }).expect(400);
      await send({ ...base, fromEntity: 'nope', amount: 1 }).expect(400);
      await send({ ...base, toEntity: from.user.entityId, amount: 1 }).expect(400);
      const over = await send({ ...base, amount: '5.01' }).expect(400);
      expect(over.body).toEqual({ error: 'Bad Request', key: 'insufficientCredit' });
      await send({ ...base, toEntity: UNKNOWN, amount: 1 }).expect(404);
      expect(await balanceOf(ds, from.user.entityId)).toBe('5.00');
      await send({ ...base, amount: '5' }).expect(201);
      expect(await balanceOf(ds, from.user.entityId)).toBe('0.00');
    });

    it('takes only from an entity the caller controls (403 others’, 404 unknown, 401 without a session)', async () => {
      const victim = await loggedInAgent(t);
      const thief = await loggedInAgent(t);
      await fund(ds, victim.user.entityId, '50.00');
      const steal = (fromEntity: string) =>
        thief.agent
          .post('/v1/credit/transfer')
          .send({ fromEntity, toEntity: thief.user.entityId, amount: '1' });
      await steal(victim.user.entityId).expect(403).expect(errorBody(403));
      await steal(UNKNOWN).expect(404);
      // An organization's credit: those with canEditOrganizationBilling only.
      const org = await createOrg(victim.agent);
      await fund(ds, org.entity, '10.00');
      const viewer = await memberAgent(t, victim.agent, org.id, 'Viewer');
      await viewer.agent
        .post('/v1/credit/transfer')
        .send({ fromEntity: org.entity, toEntity: viewer.user.entityId, amount: '1' })
        .expect(403);
      await steal(org.entity).expect(403);
      const admin = await memberAgent(t, victim.agent, org.id, 'Admin');
      await admin.agent
        .post('/v1/credit/transfer')
        .send({ fromEntity: org.entity, toEntity: victim.user.entityId, amount: '1' })
        .expect(201);
      await t.http
        .post('/v1/credit/transfer')
        .send({ fromEntity: victim.user.entityId, toEntity: thief.user.entityId, amount: '1' })
        .expect(401);
      expect(await balanceOf(ds, victim.user.entityId)).toBe('51.00');
      expect(await balanceOf(ds, thief.user.entityId)).toBe('0.00');
    });

    it('with an Idempotency-Key, a repeated transfer is made once', async () => {
      const from = await loggedInAgent(t);
      const to = await loggedInAgent(t);
      await fund(ds, from.user.entityId, '10.00');
      const body = { fromEntity: from.user.entityId, toEntity: to.user.entityId, amount: '4' };
      const first = await from.agent
        .post('/v1/credit/transfer')
        .set('Idempotency-Key', 'transfer-1')
        .send(body)
        .expect(201);
      const second = await from.agent
        .post('/v1/credit/transfer')
        .set('Idempotency-Key', 'transfer-1')
        .send(body)
        .expect(201);
      expect(second.body).toEqual(first.body);
      expect(await balanceOf(ds, from.user.entityId)).toBe('6.00');
    });

    it('the ledger refuses changes and removals of its entries', async () => {
      const u = await loggedInAgent(t);
      await fund(ds, u.user.entityId, '1.00');
      await expect(
        ds.query(`UPDATE credit_entry SET amount = 100 WHERE entity_id = $1`, [u.user.entityId]),
      ).rejects.toThrow(/append-only/);
      await expect(
        ds.query(`DELETE FROM credit_entry WHERE entity_id = $1`, [u.user.entityId]),
      ).rejects.toThrow(/append-only/);
    });
  });

  describe('GET /v1/entity/:entity/history, GET /v1/referral/:entity', () => {
    it('are the owner’s and billing editors’ only', async () => {
      const owner = await loggedInAgent(t);
      const other = await loggedInAgent(t);
      await fund(ds, owner.user.entityId, '3.00');
      const org = await createOrg(owner.agent);
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      for (const path of ['history', 'referral']) {
        const url = (entity: string) =>
          path === 'history' ? `/v1/entity/${entity}/history` : `/v1/referral/${entity}`;
        await owner.agent.get(url(owner.user.entityId)).expect(200);
        await owner.agent.get(url(org.entity)).expect(200);
        await other.agent.get(url(owner.user.entityId)).expect(403).expect(errorBody(403));
        await other.agent.get(url(org.entity)).expect(403);
        await viewer.agent.get(url(org.entity)).expect(403);
        await owner.agent.get(url(UNKNOWN)).expect(404);
        await owner.agent.get(url('not-a-uuid')).expect(400);
        await t.http.get(url(owner.user.entityId)).expect(401);
      }
      const orgView = await owner.agent.get(`/v1/referral/${org.entity}`).expect(200);
      expect(orgView.body).toEqual({
        entity: org.entity,
        referralCode: null,
        referralCount: 0,
        invitations: [],
        cards: [],
        balance: '0.00',
        currency: 'USD',
      });
      const page = await owner.agent
        .get(`/v1/entity/${owner.user.entityId}/history?limit=1`)
        .expect(200);
      expect(page.body).toHaveLength(1);
      await owner.agent.get(`/v1/entity/${owner.user.entityId}/history?limit=0`).expect(400);
    });

    it('GET /v1/organization/:organization/referral needs canViewOrganization', async () => {
      const owner = await loggedInAgent(t);
      const org = await createOrg(owner.agent);
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      await viewer.agent.get(`/v1/organization/${org.id}/referral`).expect(200);
      const outsider = await loggedInAgent(t);
      await outsider.agent.get(`/v1/organization/${org.id}/referral`).expect(403);
      await owner.agent.get(`/v1/organization/${UNKNOWN}/referral`).expect(404);
      await owner.agent.get('/v1/organization/not-a-uuid/referral').expect(400);
      await t.http.get(`/v1/organization/${org.id}/referral`).expect(401);
    });
  });

  describe('GET /v1/card and POST /v1/reward', () => {
    async function cardOf(userId: string, inviteeUserId: string, orgId: string) {
      const [card] = await ds.query(
        `INSERT INTO reward_card (user_id, invitee_user_id, organization_id, value, currency)
         VALUES ($1, $2, $3, '7.50', 'USD') RETURNING id`,
        [userId, inviteeUserId, orgId],
      );
      return card.id as string;
    }

    it('reveals once under concurrency; others’ cards 403, unknown 404, malformed 400, 401', async () => {
      const owner = await loggedInAgent(t);
      const invitee = await loggedInAgent(t);
      const org = await createOrg(invitee.agent);
      const id = await cardOf(owner.user.id, invitee.user.id, org.id);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => owner.agent.post('/v1/reward').send({ rewardId: id })),
      );
      expect(answers.map((a) => [a.status, a.body.value])).toEqual(Array(8).fill([200, '7.50']));
      expect(await balanceOf(ds, owner.user.entityId)).toBe('7.50');
      const other = await loggedInAgent(t);
      await other.agent
        .post('/v1/reward')
        .send({ rewardId: id })
        .expect(403)
        .expect(errorBody(403));
      expect((await other.agent.get('/v1/card').expect(200)).body).toEqual([]);
      await owner.agent.post('/v1/reward').send({ rewardId: UNKNOWN }).expect(404);
      await owner.agent.post('/v1/reward').send({ rewardId: 'card' }).expect(400);
      await owner.agent.post('/v1/reward').send({}).expect(400);
      await t.http.post('/v1/reward').send({ rewardId: id }).expect(401);
      await t.http.get('/v1/card').expect(401);
      expect(await balanceOf(ds, owner.user.entityId)).toBe('7.50');
    });
  });

  describe('POST /v1/referral/company', () => {
    it('records a company once per referrer (200 for the same website or contact)', async () => {
      const u = await loggedInAgent(t);
      const first = await u.agent
        .post('/v1/referral/company')
        .send({
          name: 'Acme',
          website: 'https://www.acme.example/about',
          contactEmail: 'CEO@acme.example',
          note: 'Series A soon',
        })
        .expect(201);
      expect(first.body).toEqual({
        id: expect.any(String),
        name: 'Acme',
        website: 'https://www.acme.example/about',
        contactEmail: 'ceo@acme.example',
        note: 'Series A soon',
        created: expect.any(String),
      });
      const sameSite = await u.agent
        .post('/v1/referral/company')
        .send({ name: 'ACME Inc', website: 'acme.example', contactEmail: 'cfo@acme.example' })
        .expect(200);
      expect(sameSite.body.id).toBe(first.body.id);
      const sameContact = await u.agent
        .post('/v1/referral/company')
        .send({ name: 'Acme', contactEmail: 'ceo@acme.example' })
        .expect(200);
      expect(sameContact.body.id).toBe(first.body.id);
      const other = await loggedInAgent(t);
      const theirs = await other.agent
        .post('/v1/referral/company')
        .send({ name: 'Acme', website: 'acme.example', contactEmail: 'ceo@acme.example' })
        .expect(201);
      expect(theirs.body.id).not.toBe(first.body.id);
      expect(theirs.body.note).toBeNull();
    });

    it('refuses bad input (400) and no session (401)', async () => {
      const u = await loggedInAgent(t);
      for (const body of [
        {},
        { name: '', contactEmail: 'a@b.example' },
        { name: 'X', contactEmail: 'nope' },
        { name: 'X', contactEmail: 'a@b.example', website: 'not a url' },
        { name: 'X'.repeat(201), contactEmail: 'a@b.example' },
        { name: 'X', contactEmail: 'a@b.example', note: 'n'.repeat(2001) },
      ]) {
        await u.agent.post('/v1/referral/company').send(body).expect(400);
      }
      await t.http
        .post('/v1/referral/company')
        .send({ name: 'X', contactEmail: 'a@b.example' })
        .expect(401);
    });
  });

  describe('GET /v1/waitlistStats', () => {
    it('answers the total to anyone, and a session’s place in order of registration', async () => {
      const anonymous = await t.http.get('/v1/waitlistStats').expect(200);
      expect(anonymous.body).toEqual({ total: expect.any(Number) });
      const first = await loggedInAgent(t);
      const second = await loggedInAgent(t);
      const a = (await first.agent.get('/v1/waitlistStats').expect(200)).body;
      const b = (await second.agent.get('/v1/waitlistStats').expect(200)).body;
      expect(b.total).toBe(anonymous.body.total + 2);
      expect(a).toEqual({ total: b.total, position: b.total - 1, referralCount: 0 });
      expect(b).toEqual({ total: b.total, position: b.total, referralCount: 0 });
    });
  });
});
