// The gateway hooks' HTTP layer: the routes under HOOKS_PATH, their token and their answers.
export { HooksController, hooksController } from './hooks.controller';
export { HookRequests } from './hook-requests';
export { HooksTokenVerifier } from './hooks-token.verifier';
