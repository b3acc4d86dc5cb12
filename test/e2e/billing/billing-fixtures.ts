import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { BillingSubscription } from '../../../src/billing/store/subscription.entity';
import { createTestApp, TestApp } from '../../support/app';
import { FakeBilling, FakeWebhook } from '../../fakes/billing';
import { formEncode, signature } from '../../fakes/billing-webhooks';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UNKNOWN = '6f1c1d1e-0000-4000-8000-000000000000';

/** Every BILLING_* variable blank: billing off. */
export const UNCONFIGURED = {
  BILLING_PROVIDER_URL: '',
  BILLING_API_KEY: '',
  BILLING_SITE_SHARED_KEY: '',
  BILLING_PRODUCT_FAMILY: '',
};

/** The app against a fake provider with the catalogue seeded (and `env`), and the app's database. */
export async function billingApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; fake: FakeBilling; ds: DataSource }> {
  const fake = await FakeBilling.start();
  fake.seedCatalogue();
  const t = await createTestApp({ env: { ...fake.env(), ...env } });
  return { t, fake, ds: t.get<DataSource>(DataSource) };
}

export async function closeBillingApp(t: TestApp, fake: FakeBilling): Promise<void> {
  await t.close();
  await fake.close();
}

/** A live subscription row as a configured app left it (for an app since unconfigured). */
export async function storedSubscription(
  ds: DataSource,
  org: { id: string; entity: string },
): Promise<string> {
  const id = randomUUID();
  await ds.getRepository(BillingSubscription).insert({
    id,
    organizationId: org.id,
    entityId: org.entity,
    providerId: Math.floor(Math.random() * 1e9) + 1,
    productHandle: 'starter',
    pricePointHandle: null,
    state: 'active',
    currentPeriodEndsAt: null,
    providerUpdatedAt: new Date(),
  });
  return id;
}

/** Posts the webhook to the app as the provider does (form body, signature, id header). */
export function postWebhook(app: TestApp, webhook: FakeWebhook, key: string) {
  const body = formEncode({ id: webhook.id, event: webhook.event, payload: webhook.payload });
  return app.http
    .post('/v1/billing/webhook')
    .set('content-type', 'application/x-www-form-urlencoded')
    .set('x-chargify-webhook-id', String(webhook.id))
    .set('x-chargify-webhook-signature-hmac-sha-256', signature(key, body))
    .send(body);
}
