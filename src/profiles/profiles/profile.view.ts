import { Profile } from './profile.entity';

/** A profile as anyone logged in sees it. */
export interface PublicProfileView {
  id: string;
  user: string | null;
  firstName: string | null;
  lastName: string | null;
  title: string | null;
  avatarFileId: string | null;
  locale: string | null;
  timezone: string | null;
  created: string;
  updated: string;
}

/** A profile as its own user sees it: contact details too. */
export interface OwnProfileView extends PublicProfileView {
  phone: string | null;
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
