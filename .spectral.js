// Spectral's OpenAPI rules with every warning an error, and the rules of our contract
// (`npm run lint` runs it on the document the app serves; see scripts/openapi.ts).
const { oas } = require('@stoplight/spectral-rulesets');

/**
 * Every operation documents a 2xx response with a body schema, or a 204 without one; an operation
 * that only redirects (a 3xx and no 2xx: the identity provider's form post) has no body to give.
 */
function successSchema(responses, _options, context) {
  const statuses = Object.keys(responses ?? {});
  const success = Object.entries(responses ?? {}).filter(([status]) => /^2\d\d$/.test(status));
  const redirectOnly = !success.length && statuses.some((status) => /^3\d\d$/.test(status));
  const documented =
    redirectOnly ||
    success.some(
      ([status, r]) =>
        status === '204' || Object.values(r.content ?? {}).some((media) => media && media.schema),
    );
  return documented ? [] : [{ message: `${context.path.slice(1, 3).join(' ')}: no 2xx response with a schema` }];
}

module.exports = {
  extends: [[oas, 'recommended']],
  rules: {
    'operation-operationId': 'error',
    'operation-tag-defined': 'error',
    'operation-description': 'error',
    'operation-success-response': 'error',
    'oas3-api-servers': 'error',
    'path-params': 'error',
    'ledgerline-success-schema': {
      description:
        'Every operation documents a 2xx response with a body schema (or a 204, or only redirects).',
      severity: 'error',
      given: '$.paths[*][get,put,post,delete,patch].responses',
      then: { function: successSchema },
    },
  },
};
