import { ApiProperty } from '@nestjs/swagger';
import { Profile } from './profile.entity';

/** A profile as anyone logged in sees it. */
export class PublicProfileView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  /** The profile's user. */
  @ApiProperty({ type: String, format: 'uuid' })
  user: string | null;
  firstName: string | null;
  lastName: string | null;
  title: string | null;
  /** Id of the uploaded file used as the avatar. */
  @ApiProperty({ type: String, format: 'uuid' })
  avatarFileId: string | null;
  /** BCP 47 language tag, e.g. `en-US`. */
  locale: string | null;
  /** IANA time zone name, e.g. `America/New_York`. */
  timezone: string | null;
  @ApiProperty({ format: 'date-time' })
  created: string;
  @ApiProperty({ format: 'date-time' })
  updated: string;
}

/** A profile as its own user sees it: contact details too. */
export class OwnProfileView extends PublicProfileView {
  /** E.164, e.g. `+14155550100`. */
  phone: string | null;
  /** The user's personal address (`/v1/address/:address`). */
  @ApiProperty({ type: String, format: 'uuid' })
  address: string | null;
}

export type ProfileView = PublicProfileView | OwnProfileView;

export const toPublicProfileView = (p: Profile): PublicProfileView => ({
  id: p.id,
  user: p.userId,
  firstName: p.firstName,
  lastName: p.lastName,
  title: p.title,
  avatarFileId: p.avatarFileId,
  locale: p.locale,
  timezone: p.timezone,
  created: p.created.toISOString(),
  updated: p.updated.toISOString(),
});

export const toOwnProfileView = (p: Profile, addressId: string | null): OwnProfileView => ({
  ...toPublicProfileView(p),
  phone: p.phone,
  address: addressId,
});
