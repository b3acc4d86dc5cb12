/** Imported first: an LLM key is set, but AGENT_ENABLED=false keeps the agent off. */
process.env.LLM_API_KEY = 'an-llm-key';
process.env.AGENT_ENABLED = 'false';
