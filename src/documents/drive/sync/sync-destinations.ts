import { Injectable } from '@nestjs/common';
import { AccessContext, DomainError } from '../../../common';
import type { DocumentStore } from '../../../organizations';
import { DataRoomService } from '../../data-room/data-room.service';
import type { Upload } from '../../files/file-store.service';
import { SuiteStore } from '../../suite/suite-store.service';
import { NameTaken, SyncDestination, SyncFile } from './sync-destination';

/** A run's destination by the organization's store, acting with `access`. */
@Injectable()
export class SyncDestinations {
  constructor(
    private readonly dataRoom: DataRoomService,
    private readonly suite: SuiteStore,
  ) {}

  for(store: DocumentStore, access: AccessContext): SyncDestination {
    return store === 'suite' ? this.suiteStore(access) : this.dataRoomOf(access);
  }

  private dataRoomOf(access: AccessContext): SyncDestination {
    return {
      folderAt: (path) => this.dataRoom.folderAt(access, path),
      add: (parentFolder, file, keep) =>
        reported(
          this.dataRoom.upload(access, [uploadOf(file)], parentFolder, (tx, [view]) =>
            keep(tx, view.id),
          ),
        ).then(([view]) => view.id),
      replace: (documentId, file, keep) =>
        replaced(
          this.dataRoom.replaceContent(access, documentId, uploadOf(file), (tx, view) =>
            keep(tx, view.id),
          ),
        ),
      exists: (documentId) => this.dataRoom.exists(access.organizationId!, documentId),
    };
  }

  private suiteStore(access: AccessContext): SyncDestination {
    return {
      folderAt: (path) => this.suite.folderAt(access, path),
      add: (parentFolder, file, keep) =>
        reported(
          this.suite.upload(access, [uploadOf(file)], parentFolder, false, (tx, [view]) =>
            keep(tx, view.id),
          ),
        ).then(([view]) => view.id),
      replace: (documentId, file, keep) =>
        replaced(
          this.suite.replaceContent(access, documentId, uploadOf(file), (tx, view) =>
            keep(tx, view.id),
          ),
        ),
      exists: (documentId) => this.suite.exists(access.organizationId!, documentId),
    };
  }
}

/** Both stores derive the content type from the name (and check the bytes), as for any upload. */
const uploadOf = (file: SyncFile): Upload => ({
  originalname: file.name,
  buffer: file.bytes,
  size: file.bytes.length,
});

/** A store's 409 for a name taken (the data room's check, the drive's answer) as `NameTaken`. */
function reported<T>(write: Promise<T>): Promise<T> {
  return write.catch((err: unknown) => {
    if (err instanceof DomainError && err.status === 409) throw new NameTaken(err.message);
    throw err;
  });
}

/** A document deleted between the check and the write (404) is not replaced: false. */
function replaced(write: Promise<unknown>): Promise<boolean> {
  return write.then(
    () => true,
    (err: unknown) => {
      if (err instanceof DomainError && err.status === 404) return false;
      throw err;
    },
  );
}
