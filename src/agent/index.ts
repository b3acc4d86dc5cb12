export { AgentModule } from './agent.module';
