import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Address } from './addresses/address.entity';
import { AddressesController } from './addresses/addresses.controller';
import { AddressesService } from './addresses/addresses.service';
import { LegalEntity } from './entities/legal-entity.entity';
import { LegalRecordsService } from './legal-records.service';
import { ProfileRecords } from './profile-records';
import { Profile } from './profiles/profile.entity';
import { ProfilesController } from './profiles/profiles.controller';
import { ProfilesService } from './profiles/profiles.service';
import { AddressRepository, LegalEntityRepository, ProfileRepository } from './records.repository';

/**
 * Legal entities, profiles and addresses: the records of people and organizations, used by Auth
 * (a user's personal records) and Organizations (an organization's own, its members').
 */
@Module({
  imports: [TypeOrmModule.forFeature([LegalEntity, Profile, Address])],
  controllers: [ProfilesController, AddressesController],
  providers: [
    LegalEntityRepository,
    ProfileRepository,
    AddressRepository,
    LegalRecordsService,
    ProfilesService,
    AddressesService,
    ProfileRecords,
  ],
  exports: [LegalRecordsService],
})
export class ProfilesModule {}
