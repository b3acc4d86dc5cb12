import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../auth';
import { OrganizationsModule } from '../organizations';
import { ChatClient } from './chat.client';
import { ChatConsumer } from './chat.consumer';
import { ChatController } from './chat.controller';
import { ChatMembership } from './chat-membership.service';
import { ChatPosting } from './chat-posting.service';
import { ChatProvisioning } from './chat-provisioning.service';
import { ChatSessions } from './chat-sessions.service';
import { ChatSync } from './chat-sync.service';
import { GatewayTokenVerifier } from './gateway-token.verifier';
import { ChatLinks } from './store/chat-links';
import { ChatLocks } from './store/chat-locks';
import { ChatTeamLink } from './store/chat-team.entity';
import { ChatToken } from './store/chat-token.entity';
import { ChatUserLink } from './store/chat-user.entity';

/**
 * Team messaging on a Mattermost server (issue 26). Its routes always exist; while CHAT_URL or
 * CHAT_ADMIN_TOKEN is unset nothing calls the server (`config` says so, the rest answer 500
 * `chatNotConfigured`, member events are consumed as no-ops).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([ChatUserLink, ChatToken, ChatTeamLink]),
    UsersModule,
    OrganizationsModule,
  ],
  controllers: [ChatController],
  providers: [
    ChatClient,
    ChatLinks,
    ChatLocks,
    ChatProvisioning,
    ChatMembership,
    ChatSessions,
    ChatSync,
    ChatConsumer,
    ChatPosting,
    GatewayTokenVerifier,
  ],
  exports: [ChatPosting],
})
export class ChatModule {}
