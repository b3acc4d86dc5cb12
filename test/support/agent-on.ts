/**
 * Imported first by an agent test file: the agent's presence is decided when the app's modules are
 * composed (at import), so LLM_API_KEY must be set before `support/app` is loaded. The fake
 * language model checks this key; its URL comes with each app's env (`FakeLlm.env()`).
 */
import { FakeLlm } from '../fakes/llm';

process.env.LLM_API_KEY = new FakeLlm().apiKey;
delete process.env.AGENT_ENABLED;
