import { randomBytes, randomInt } from 'node:crypto';
import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { RegistrationService } from '../../src/auth/registration/registration.service';
import { User } from '../../src/auth/users/user.entity';
import type { UserView } from '../../src/auth/users/user.view';
import { codeOf, FakeSmtp } from '../fakes/smtp';
import type { TestApp } from './app';
import type { ServiceTest } from './service';

export interface TestUserOptions {
  email?: string;
  password?: string;
  name?: string;
  /** Client IP sent as X-Forwarded-For; a random one by default (the per-IP limit is 20). */
  ip?: string;
  /**
   * When given, the address is verified with the code read from this fake SMTP server (the app
   * must be started with `SMTP_URL: smtp.url`); otherwise it is marked verified in the database.
   */
  smtp?: FakeSmtp;
  /** Leave the address unverified (default false). */
  unverified?: boolean;
  /** Registers with this referral code. */
  referralCode?: string;
}

export interface TestUser {
  user: UserView;
  email: string;
  password: string;
}

export interface LoggedInUser extends TestUser {
  /** A supertest agent holding the session cookie. */
  agent: Agent;
}

export const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** Creates a user through `POST /v1/user` and verifies the address (see `smtp`). */
export async function registerUser(t: TestApp, options: TestUserOptions = {}): Promise<TestUser> {
  const tag = randomBytes(5).toString('hex');
  const email = options.email ?? `user-${tag}@example.test`;
  const password = options.password ?? `Ledgerline-test-${tag}`;
  const name = options.name ?? `Test User ${tag}`;
  const res = await t.http
    .post('/v1/user')
    .set('X-Forwarded-For', options.ip ?? randomIp())
    .send({ email, password, name, referralCode: options.referralCode });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${JSON.stringify(res.body)}`);
  let user = res.body.user as UserView;
  if (options.unverified) return { user, email, password };

  if (options.smtp) {
    const code = codeOf(await options.smtp.nextMail(email));
    const verified = await t.http.post('/v1/user/email/verify').send({ email, code });
    if (verified.status !== 200) {
      throw new Error(`verify: ${verified.status} ${JSON.stringify(verified.body)}`);
    }
    user = verified.body.user;
  } else {
    await t
      .get<DataSource>(DataSource)
      .getRepository(User)
      .update({ id: user.id }, { emailVerified: true });
    user = { ...user, emailVerified: true };
  }
  return { user, email, password };
}

/** Logs in through `POST /v1/user/login` on a new agent; the agent keeps the session cookie. */
export async function logIn(t: TestApp, email: string, password: string): Promise<Agent> {
  const agent = t.agent();
  const res = await agent.post('/v1/user/login').send({ email, password });
  if (res.status !== 200 || !res.body.user) {
    throw new Error(`login: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return agent;
}

/** A new verified user and an agent logged in as them. */
export async function loggedInAgent(
  t: TestApp,
  options: TestUserOptions = {},
): Promise<LoggedInUser> {
  const registered = await registerUser(t, options);
  const agent = await logIn(t, registered.email, registered.password);
  return { ...registered, agent };
}

/**
 * A new user made by the registration service, verified unless `unverified` (for service tests:
 * createServiceTest of a module that imports AuthModule).
 */
export async function createUser(
  s: ServiceTest,
  options: Omit<TestUserOptions, 'smtp'> = {},
): Promise<TestUser> {
  const tag = randomBytes(5).toString('hex');
  const email = options.email ?? `user-${tag}@example.test`;
  const password = options.password ?? `Ledgerline-test-${tag}`;
  const name = options.name ?? `Test User ${tag}`;
  const registered = await s.get<RegistrationService>(RegistrationService).register({
    email,
    password,
    name,
    referralCode: options.referralCode,
    ip: options.ip ?? randomIp(),
  });
  if (options.unverified) return { user: registered, email, password };
  await s.dataSource.getRepository(User).update({ id: registered.id }, { emailVerified: true });
  return { user: { ...registered, emailVerified: true }, email, password };
}
