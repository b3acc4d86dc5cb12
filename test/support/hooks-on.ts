/**
 * Imported first by a gateway-hooks test file: whether the hooks module is composed is decided
 * when the app's modules are (at import), from HOOKS_ENABLED, which needs the agent (its key) and
 * a token. Each app's own token comes with its env.
 */
import './agent-on';

process.env.HOOKS_ENABLED = 'true';
process.env.HOOKS_TOKEN ??= 'hooks-token-set-before-the-app-module-is-composed';
