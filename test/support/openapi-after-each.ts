import { takeViolations } from './openapi-responses';

/**
 * Every e2e test fails when an answer it received does not match the OpenAPI document: an
 * undocumented status, or a JSON body outside the documented schema (see openapi-responses.ts).
 */
afterEach(() => {
  const seen = takeViolations();
  if (seen.length) {
    throw new Error(`answers that differ from the OpenAPI document:\n${seen.join('\n')}`);
  }
});
