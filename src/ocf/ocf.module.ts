import { Module } from '@nestjs/common';
import { OcfExportModule } from './export/ocf-export.module';
import { OcfImportModule } from './import/ocf-import.module';

/** The cap table in and out as an Open Cap Format 1.2 package. */
@Module({ imports: [OcfExportModule, OcfImportModule], exports: [OcfImportModule] })
export class OcfModule {}
