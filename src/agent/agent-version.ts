/**
 * The version of the agent's contract: its tool catalogue and instructions. Changes when a tool is
 * added, removed or changes meaning, so a client can tell what the model may do.
 */
export const AGENT_VERSION = '2026-11-27';
