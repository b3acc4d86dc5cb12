import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../common';
import { DataRoomReadsService, EntryContent } from './data-room/data-room-reads.service';
import { DataRoomService } from './data-room/data-room.service';
import type { CreateFolderDto, ListDocumentsQuery, MoveEntryDto } from './data-room/data-room.dto';
import type { DataRoomEntryView } from './data-room/data-room.view';
import type { Upload } from './files/file-store.service';
import { SuiteContent, SuiteStore } from './suite/suite-store.service';

/**
 * The shared `/document` routes' backend: the organization's store as the guard read it
 * (`documentStore` of the AccessContext), the data room or the productivity-suite store.
 */
@Injectable()
export class DocumentStores {
  constructor(
    private readonly dataRoom: DataRoomService,
    private readonly dataRoomReads: DataRoomReadsService,
    private readonly suite: SuiteStore,
  ) {}

  /** Whether the organization's documents are in the suite store. */
  inSuite(access: AccessContext): boolean {
    return access.organization?.documentStore === 'suite';
  }

  /** The list's JSON: the suite's (never cached: the drive changes outside us too), or the data room's. */
  list(access: AccessContext, query: ListDocumentsQuery): Promise<string> {
    return this.inSuite(access)
      ? this.suite.list(access.organizationId!, query)
      : this.dataRoomReads.list(access.organizationId!, query);
  }

  content(access: AccessContext, id: string): Promise<EntryContent | SuiteContent> {
    return this.inSuite(access)
      ? this.suite.content(access.organizationId!, id)
      : this.dataRoomReads.content(access.organizationId!, id);
  }

  /** `many`: the suite's `document/many` (several files); its `document` takes one. */
  upload(
    access: AccessContext,
    files: Upload[] | undefined,
    parentFolder: string | null,
    many = false,
  ): Promise<DataRoomEntryView[]> {
    return this.inSuite(access)
      ? this.suite.upload(access, files, parentFolder, many)
      : this.dataRoom.upload(access, files, parentFolder);
  }

  createFolder(access: AccessContext, dto: CreateFolderDto): Promise<DataRoomEntryView> {
    return this.inSuite(access)
      ? this.suite.createFolder(access, dto)
      : this.dataRoom.createFolder(access, dto);
  }

  move(access: AccessContext, id: string, dto: MoveEntryDto): Promise<DataRoomEntryView> {
    return this.inSuite(access)
      ? this.suite.move(access, id, dto)
      : this.dataRoom.move(access, id, dto);
  }

  remove(access: AccessContext, id: string, recursive: boolean): Promise<void> {
    return this.inSuite(access)
      ? this.suite.remove(access, id, recursive)
      : this.dataRoom.remove(access, id, recursive);
  }
}
