import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { HttpError } from '../../common/errors/app-error';
import { Address } from '../addresses/address.entity';
import { RecordResolvers } from '../permissions/record-resolvers';
import { UpdateProfileDto } from './profile.dto';
import { Profile } from './profile.entity';
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
export class ProfilesService implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly records: RecordResolvers,
  ) {}

  onModuleInit() {
    // A profile is a personal record: no organization, owned by its user (canUpdateProfile).
    this.records.register('profile', async (id) => {
      const profile = await this.dataSource
        .getRepository(Profile)
        .findOne({ where: { id }, select: { id: true, userId: true } });
      return profile ? { organizationId: null, ownerUserId: profile.userId } : null;
    });
  }

  /** Phone and address only for the profile's own user. */
  async get(callerUserId: string, id: string): Promise<ProfileView> {
    const profile = await this.dataSource.getRepository(Profile).findOneBy({ id });
    if (!profile) throw HttpError.notFound();
    if (!profile.userId || profile.userId !== callerUserId) return toPublicProfileView(profile);
    return toOwnProfileView(profile, await this.personalAddressId(this.dataSource, profile.userId));
  }

  /** The guard has established that the caller owns the profile (canUpdateProfile). */
  update(callerUserId: string, id: string, dto: UpdateProfileDto): Promise<OwnProfileView> {
    return this.dataSource.transaction(async (m) => {
      const profile = await m.findOne(Profile, {
        where: { id },
        lock: { mode: 'pessimistic_write' },
      });
      if (!profile) throw HttpError.notFound();
      if (!profile.userId || profile.userId !== callerUserId) throw HttpError.forbidden();
      for (const field of FIELDS) {
        if (dto[field] !== undefined) profile[field] = dto[field] ?? null;
      }
      const saved = await m.save(profile);
      return toOwnProfileView(saved, await this.personalAddressId(m, callerUserId));
    });
  }

  private async personalAddressId(
    m: Pick<DataSource, 'getRepository'>,
    userId: string,
  ): Promise<string | null> {
    const address = await m.getRepository(Address).findOne({
      where: { userId },
      select: { id: true },
      order: { created: 'ASC' },
    });
    return address?.id ?? null;
  }
}
