import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LegalEntity } from './entities/legal-entity.entity';
import { PersonalRecordsService } from './personal-records.service';
import { Profile } from './profiles/profile.entity';

@Module({
  imports: [TypeOrmModule.forFeature([LegalEntity, Profile])],
  providers: [PersonalRecordsService],
  exports: [PersonalRecordsService],
})
export class OrganizationsModule {}
