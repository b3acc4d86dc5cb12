export { ProfilesModule } from './profiles.module';
export { LegalRecordsService } from './legal-records.service';
