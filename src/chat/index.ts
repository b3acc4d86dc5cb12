export { ChatModule } from './chat.module';
// The gateway hooks deliver the agent's replies to a channel of the organization's team.
export { ChatPosting } from './chat-posting.service';
export type { ChatPostRef } from './chat-posting.service';
