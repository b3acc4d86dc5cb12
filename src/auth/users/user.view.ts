import { ApiProperty } from '@nestjs/swagger';
import type { User } from './user.entity';

/** The user object of every response: nothing else of the account ever leaves the server. */
export class UserView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty() emailVerified: boolean;
  @ApiProperty() twoFactorEnabled: boolean;
  @ApiProperty({ format: 'uuid', description: 'The personal entity (`/v1/entity/:entity/...`)' })
  entityId: string;
  @ApiProperty({ format: 'uuid' }) profileId: string;
  @ApiProperty({ format: 'date-time' }) created: string;
}

export class UserResponse {
  @ApiProperty({ type: UserView }) user: UserView;
}

export function toUserView(user: User): UserView {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    emailVerified: user.emailVerified,
    twoFactorEnabled: user.twoFactorEnabled,
    entityId: user.entityId,
    profileId: user.profileId,
    created: user.created.toISOString(),
  };
}
