import type { AgentHookRequest, HookActions, WakeRequest } from '../../src/hooks/hook-actions';

/** The agent side of the gateway hooks, recording what the router asks of it. */
export class RecordingActions implements HookActions {
  wakes: WakeRequest[] = [];
  agents: AgentHookRequest[] = [];
  known = new Set<string>();
  async organizationExists(id: string) {
    return this.known.has(id);
  }
  async wake(request: WakeRequest) {
    this.wakes.push(request);
  }
  async agent(request: AgentHookRequest) {
    this.agents.push(request);
    return { runId: `run-${this.agents.length}` };
  }
  reset() {
    this.wakes = [];
    this.agents = [];
  }
}
