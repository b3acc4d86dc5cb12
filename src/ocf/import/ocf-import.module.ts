import { Module } from '@nestjs/common';

/** `POST /v1/organization/:organization/ocf`: an OCF package replayed into an empty cap table. */
@Module({})
export class OcfImportModule {}
