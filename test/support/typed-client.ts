import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from '../../clients/typescript/schema';
import { TestApp } from './app';
import { registerUser, TestUserOptions, TestUser } from './users';

/** The typed client of the API: openapi-fetch over the generated clients/typescript/schema.d.ts. */
export type ApiClient = Client<paths>;

/** A browser's cookie jar, for the session cookie. */
function cookieJar(): Middleware {
  let cookie: string | undefined;
  return {
    onRequest({ request }) {
      if (cookie) request.headers.set('cookie', cookie);
      return request;
    },
    onResponse({ response }) {
      const set = response.headers.get('set-cookie');
      if (set) cookie = set.split(';')[0];
      return response;
    },
  };
}

/**
 * A typed client of the test app with a cookie jar of its own, on the app's HTTP server (listening
 * on a free loopback port from the first call). New e2e tests call the routes through it: a route,
 * parameter or field the OpenAPI document lost or renamed breaks `npm run typecheck`.
 */
export async function typedClient(t: TestApp): Promise<ApiClient> {
  const server = t.app.getHttpServer() as { listening: boolean };
  if (!server.listening) await t.app.listen(0, '127.0.0.1');
  const baseUrl = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
  const client = createClient<paths>({ baseUrl });
  client.use(cookieJar());
  return client;
}

/** A new verified user (see registerUser) and a typed client logged in as them. */
export async function loggedInClient(
  t: TestApp,
  options: TestUserOptions = {},
): Promise<TestUser & { client: ApiClient }> {
  const registered = await registerUser(t, options);
  const client = await typedClient(t);
  const login = await client.POST('/v1/user/login', {
    body: { email: registered.email, password: registered.password },
  });
  if (login.response.status !== 200 || !login.data?.user) {
    throw new Error(`login: ${login.response.status} ${JSON.stringify(login.error)}`);
  }
  return { ...registered, client };
}
