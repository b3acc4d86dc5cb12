import '../../support/agent-on';
import { DataSource } from 'typeorm';
import { Scheduler } from '../../../src/scheduler';
import { createTestApp, TestApp } from '../../support/app';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

describe('system event clean-up', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { LLM_BASE_URL: 'http://127.0.0.1:9' } });
  });
  afterAll(() => t.close());

  it('deletes events consumed, or left pending, more than a week ago; keeps the rest', async () => {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent);
    const ds = t.get<DataSource>(DataSource);
    const add = (text: string, createdDaysAgo: number, consumedDaysAgo: number | null) =>
      ds.query(
        `INSERT INTO agent_system_event (organization_id, text, source, created, consumed_at)
         VALUES ($1, $2, 'wake', now() - make_interval(days => $3),
                 CASE WHEN $4::int IS NULL THEN NULL ELSE now() - make_interval(days => $4::int) END)`,
        [org.id, text, createdDaysAgo, consumedDaysAgo],
      );
    await add('consumed long ago', 10, 9);
    await add('pending for a week', 8, null);
    await add('consumed recently', 10, 2);
    await add('pending', 1, null);
    expect(await t.get<Scheduler>(Scheduler).run('agent:system-event-cleanup')).toBe(2);
    const left = await ds.query(
      'SELECT text FROM agent_system_event WHERE organization_id = $1 ORDER BY text',
      [org.id],
    );
    expect(left.map((r: { text: string }) => r.text)).toEqual(['consumed recently', 'pending']);
  });
});
