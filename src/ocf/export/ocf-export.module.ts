import { Module } from '@nestjs/common';

/** `GET /v1/organization/:organization/ocf`: the cap table as an OCF package (zip). */
@Module({})
export class OcfExportModule {}
