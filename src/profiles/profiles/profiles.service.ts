import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common';
import { UnitOfWork } from '../../events';
import { AddressRepository, ProfileRepository } from '../records.repository';
import { UpdateProfileDto } from './profile.dto';
import { OwnProfileView, ProfileView, toOwnProfileView, toPublicProfileView } from './profile.view';

const FIELDS = [
  'firstName',
  'lastName',
  'phone',
  'title',
  'avatarFileId',
  'locale',
  'timezone',
] as const;

/** Profiles (spec 4.5): readable by anyone logged in, changed only by their own user. */
@Injectable()
export class ProfilesService {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly addresses: AddressRepository,
    private readonly uow: UnitOfWork,
  ) {}

  /** Phone and address only for the profile's own user. */
  async get(callerUserId: string, id: string): Promise<ProfileView> {
    const profile = await this.profiles.findById(id);
    if (!profile) throw DomainError.notFound('no such profile');
    if (!profile.userId || profile.userId !== callerUserId) return toPublicProfileView(profile);
    return toOwnProfileView(profile, await this.addresses.personalOf(profile.userId));
  }

  /** The guard has established that the caller owns the profile (canUpdateProfile). */
  update(callerUserId: string, id: string, dto: UpdateProfileDto): Promise<OwnProfileView> {
    return this.uow.run(async (tx) => {
      const profile = await this.profiles.lockById(id, tx);
      if (!profile) throw DomainError.notFound('no such profile');
      for (const field of FIELDS) {
        if (dto[field] !== undefined) profile[field] = dto[field] ?? null;
      }
      const saved = await this.profiles.save(profile, tx);
      return toOwnProfileView(saved, await this.addresses.personalOf(callerUserId, tx));
    });
  }
}
