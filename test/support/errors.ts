import type { Response } from 'supertest';

/** The bodies every 401, 403 and 404 answers with (each carries a message). */
export const ERROR_BODIES = {
  401: { error: 'Unauthorized', key: 'unauthorized', message: expect.any(String) },
  403: { error: 'Forbidden', message: expect.any(String) },
  404: { error: 'Not Found', key: 'resourceNotFound', message: expect.any(String) },
} as const;

/** `{message}` alone: the CSRF refusal, unknown query parameters, the redirect login. */
export const MESSAGE_BODY = { message: expect.any(String) };

/** A supertest assertion: the body is the standard one of this status. */
export const errorBody = (status: keyof typeof ERROR_BODIES) => (res: Response) =>
  expect(res.body).toEqual(ERROR_BODIES[status]);
