import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common';
import { FileStore } from '../files/file-store.service';
import type { StoredFile } from '../files/stored-file.entity';
import { StoredFileRepository } from '../files/stored-file.repository';
import { DataRoomEntryRepository } from './data-room-entry.repository';
import { parentKeyOf } from './data-room-folders';
import { ListDocumentsQuery, TOP_LEVEL } from './data-room.dto';
import { DataRoomEntryView, toEntryView } from './data-room.view';

/** A data room file ready to send: its stored file, the entry's (current) name, its bytes. */
export interface EntryContent {
  file: StoredFile;
  name: string;
  bytes: Readable;
}

/** Reads of the data room: the entries, and a file's content. */
@Injectable()
export class DataRoomReadsService {
  constructor(
    private readonly entries: DataRoomEntryRepository,
    private readonly files: StoredFileRepository,
    private readonly store: FileStore,
  ) {}

  /** The JSON of the whole tree (flat), or of one folder's entries. */
  async list(organizationId: string, query: ListDocumentsQuery): Promise<string> {
    const folder = query.parentFolder;
    const parentKey =
      folder === undefined
        ? undefined
        : await parentKeyOf(this.entries, organizationId, folder === TOP_LEVEL ? null : folder);
    const rows = await this.entries.list(organizationId, parentKey);
    const views: DataRoomEntryView[] = rows.map((r) => toEntryView(r.entry, r.file));
    return JSON.stringify(views);
  }

  /** A file's content, named as the entry is now (a folder has none: 404). */
  async content(organizationId: string, id: string): Promise<EntryContent> {
    const entry = await this.entries.findLive(organizationId, id);
    if (!entry) throw DomainError.notFound('no such document');
    if (entry.type !== 'file' || !entry.fileId) {
      throw DomainError.notFound('a folder has no content: only files do');
    }
    const file = await this.files.findLive(entry.fileId);
    if (!file) throw DomainError.notFound('no such document');
    return { file, name: entry.name, bytes: await this.store.open(file) };
  }
}
