import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AccessContext, Clock, DomainError } from '../../common';
import { documentEventObjects, previousAttributes, Tx, UnitOfWork } from '../../events';
import { FileStore, Upload } from '../files/file-store.service';
import { contentTypeOf, extensionOf } from '../files/file-types';
import { StoredFileRepository } from '../files/stored-file.repository';
import { DataRoomEntry, EntryType } from './data-room-entry.entity';
import { DataRoomEntryRepository } from './data-room-entry.repository';
import { parentKeyOf } from './data-room-folders';
import { CreateFolderDto, MoveEntryDto } from './data-room.dto';
import { entryEvent } from './entry-event';
import { DataRoomEntryView, toEntryView } from './data-room.view';
import { entryNameProblem, nameKeyOf } from './entry-name';

/**
 * Changes to an organization's data room. Each runs in one transaction holding the data room's
 * lock (see DataRoomEntryRepository.lockDataRoom) and records its event there: uploads
 * `document.uploaded` (one per file), `folder.created`, `document.moved`, `document.deleted`.
 */

/** The data room's events carry the entry as its route shows it, with its organization. */
const entry = () => ({
  allOf: [
    { $ref: '#/components/schemas/DataRoomEntryView' },
    {
      type: 'object',
      required: ['organization'],
      properties: { organization: { type: 'string' } },
    },
  ],
});
documentEventObjects({
  // An upload outside the data room (files.service) carries the file's record.
  'document.uploaded': () => ({
    anyOf: [entry(), { $ref: '#/components/schemas/FileRecordView' }],
  }),
  'document.moved': entry,
  'document.deleted': entry,
  'folder.created': entry,
});

@Injectable()
export class DataRoomService {
  constructor(
    private readonly entries: DataRoomEntryRepository,
    private readonly files: StoredFileRepository,
    private readonly store: FileStore,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * Stores the files and adds them to the folder, all or none (409 when a name is taken);
   * `alongside` writes the caller's own rows in the same transaction.
   */
  async upload(
    access: AccessContext,
    uploads: Upload[] | undefined,
    parentFolder: string | null,
    alongside?: (tx: Tx, views: DataRoomEntryView[]) => Promise<void>,
  ): Promise<DataRoomEntryView[]> {
    const organizationId = access.organizationId!;
    const request = {
      organizationId,
      uploadedByUserId: access.userId,
      purpose: 'document' as const,
    };
    const { result } = await this.store.store(uploads, request, async (tx, files) => {
      await this.entries.lockDataRoom(organizationId, tx);
      const parentKey = await parentKeyOf(this.entries, organizationId, parentFolder, tx);
      for (const f of files) assertName(f.name);
      await this.assertNamesFree(
        organizationId,
        parentKey,
        files.map((f) => f.name),
        tx,
      );
      const added = files.map((f) =>
        newEntry(access, 'file', f.name, parentFolder, parentKey, f.id, this.clock.now()),
      );
      await this.entries.insertMany(added, tx);
      const views = added.map((e, i) => toEntryView(e, files[i]));
      await tx.record(
        ...views.map((view) =>
          entryEvent(access, 'document.uploaded', view, `document ${view.name}: uploaded`),
        ),
      );
      await alongside?.(tx, views);
      return views;
    });
    return result;
  }

  createFolder(access: AccessContext, dto: CreateFolderDto): Promise<DataRoomEntryView> {
    const organizationId = access.organizationId!;
    const parentFolder = dto.parentFolder ?? null;
    return this.uow.run(async (tx) => {
      await this.entries.lockDataRoom(organizationId, tx);
      const parentKey = await parentKeyOf(this.entries, organizationId, parentFolder, tx);
      await this.assertNamesFree(organizationId, parentKey, [dto.name], tx);
      const folder = newEntry(
        access,
        'folder',
        dto.name,
        parentFolder,
        parentKey,
        null,
        this.clock.now(),
      );
      await this.entries.insertMany([folder], tx);
      const view = toEntryView(folder);
      await tx.record(entryEvent(access, 'folder.created', view, `folder ${view.name}: created`));
      return view;
    });
  }

  /**
   * Renames and/or moves an entry. 409 for a name taken in the destination or a folder moved
   * into itself or its own subtree; 400 for a file renamed to another type.
   */
  move(access: AccessContext, id: string, dto: MoveEntryDto): Promise<DataRoomEntryView> {
    const organizationId = access.organizationId!;
    return this.uow.run(async (tx) => {
      await this.entries.lockDataRoom(organizationId, tx);
      const entry = await this.entries.findLive(organizationId, id, tx);
      if (!entry) throw DomainError.notFound('no such document');
      const file = entry.fileId ? await this.files.findById(entry.fileId, tx) : null;
      const before = toEntryView(entry, file);
      const parentFolder = dto.parentFolder === undefined ? entry.parentFolderId : dto.parentFolder;
      const parentKey = await parentKeyOf(this.entries, organizationId, parentFolder, tx);
      if (
        entry.type === 'folder' &&
        parentFolder &&
        (await this.entries.isWithin(parentFolder, id, tx))
      ) {
        throw DomainError.conflict('a folder cannot move into itself or one of its subfolders');
      }
      if (file && contentTypeOf(extensionOf(dto.name)) !== file.contentType) {
        throw DomainError.badRequest(
          `name: a file keeps its type; ${dto.name} would not be served as ${file.contentType}`,
        );
      }
      if (dto.name === entry.name && parentFolder === entry.parentFolderId) return before;
      await this.assertNamesFree(organizationId, parentKey, [dto.name], tx, id);
      Object.assign(entry, {
        name: dto.name,
        nameKey: nameKeyOf(dto.name),
        parentFolderId: parentFolder,
        parentKey,
      });
      const after = toEntryView(await this.entries.save(entry, tx), file);
      await tx.record({
        ...entryEvent(
          access,
          'document.moved',
          after,
          `${entry.type} ${before.name}: ${movedHow(before, after)}`,
        ),
        previous: previousAttributes(before, after),
      });
      return after;
    });
  }

  /** Soft-deletes an entry; a folder with entries only `recursive`ly (else 409). */
  remove(access: AccessContext, id: string, recursive: boolean): Promise<void> {
    const organizationId = access.organizationId!;
    return this.uow.run(async (tx) => {
      await this.entries.lockDataRoom(organizationId, tx);
      const entry = await this.entries.findLive(organizationId, id, tx);
      if (!entry) throw DomainError.notFound('no such document');
      if (entry.type === 'folder' && !recursive && (await this.entries.hasEntries(id, tx))) {
        throw DomainError.conflict(
          'the folder is not empty: delete it with ?recursive=true to delete everything in it',
        );
      }
      const file = entry.fileId ? await this.files.findById(entry.fileId, tx) : null;
      const deleted = await this.entries.deleteSubtree(id, tx);
      await this.files.markDeleted(deleted.fileIds, tx);
      const inside = deleted.entries - 1;
      await tx.record(
        entryEvent(
          access,
          'document.deleted',
          toEntryView(entry, file),
          `${entry.type} ${entry.name}: deleted` +
            (inside ? ` with the ${inside} entries in it` : ''),
        ),
      );
    });
  }

  /** 409 naming the names already taken in the folder (or repeated within one request). */
  private async assertNamesFree(
    organizationId: string,
    parentKey: string,
    names: string[],
    tx: Tx,
    except?: string,
  ): Promise<void> {
    const keys = names.map(nameKeyOf);
    const repeated = names.filter((_, i) => keys.indexOf(keys[i]) !== i);
    const taken = await this.entries.takenNames(organizationId, parentKey, keys, tx, except);
    const clashes = [...new Set([...taken, ...repeated])];
    if (clashes.length) {
      throw DomainError.conflict(
        `already in this folder (names are compared whatever their case): ${clashes.join(', ')}`,
      );
    }
  }

  /** Whether the organization's file is still there (not deleted). */
  async exists(organizationId: string, id: string): Promise<boolean> {
    const entry = await this.entries.findLive(organizationId, id);
    return entry?.type === 'file';
  }

  /**
   * The folder at `path` (folder names from the top level down; [] is the top level), each
   * missing one created as `createFolder` creates it (`folder.created`), each in its own
   * transaction. 409 when a name on the way is a file's; 400 for a name no entry may have.
   */
  async folderAt(access: AccessContext, path: string[]): Promise<string | null> {
    const organizationId = access.organizationId!;
    let parentFolder: string | null = null;
    for (const name of path) {
      assertName(name);
      const under: string | null = parentFolder;
      parentFolder = await this.uow.run(async (tx) => {
        await this.entries.lockDataRoom(organizationId, tx);
        const parentKey = await parentKeyOf(this.entries, organizationId, under, tx);
        const found = await this.entries.findNamed(organizationId, parentKey, name, tx);
        if (found?.type === 'folder') return found.id;
        if (found) throw DomainError.conflict(`${found.name} is a file, not a folder`);
        const folder = newEntry(access, 'folder', name, under, parentKey, null, this.clock.now());
        await this.entries.insertMany([folder], tx);
        const view = toEntryView(folder);
        await tx.record(entryEvent(access, 'folder.created', view, `folder ${view.name}: created`));
        return folder.id;
      });
    }
    return parentFolder;
  }

  /**
   * Gives a file new content: the bytes are stored as `upload` stores them, the document keeps
   * its id, name and folder, and `document.uploaded` is recorded as for an upload. The content
   * must keep the file's type (400); a folder, or a document deleted meanwhile, is 404.
   * `alongside` writes the caller's own rows in the same transaction.
   */
  async replaceContent(
    access: AccessContext,
    id: string,
    content: Upload,
    alongside?: (tx: Tx, view: DataRoomEntryView) => Promise<void>,
  ): Promise<DataRoomEntryView> {
    const organizationId = access.organizationId!;
    const request = {
      organizationId,
      uploadedByUserId: access.userId,
      purpose: 'document' as const,
    };
    const { result } = await this.store.store([content], request, async (tx, [file]) => {
      await this.entries.lockDataRoom(organizationId, tx);
      const entry = await this.entries.findLive(organizationId, id, tx);
      if (!entry || entry.type !== 'file') throw DomainError.notFound('no such document');
      if (contentTypeOf(extensionOf(entry.name)) !== file.contentType) {
        throw DomainError.badRequest(
          `${entry.name} keeps its type; the new content would be served as ${file.contentType}`,
        );
      }
      if (entry.fileId) await this.files.markDeleted([entry.fileId], tx);
      entry.fileId = file.id;
      const view = toEntryView(await this.entries.save(entry, tx), file);
      await tx.record(
        entryEvent(
          access,
          'document.uploaded',
          view,
          `document ${view.name}: new content uploaded`,
        ),
      );
      await alongside?.(tx, view);
      return view;
    });
    return result;
  }
}

/** An uploaded file's name is its entry's: it must be a valid one too (400). */
function assertName(name: string) {
  const problem = entryNameProblem(name);
  if (problem) throw DomainError.badRequest(`file name ${name} ${problem}`);
}

function newEntry(
  access: AccessContext,
  type: EntryType,
  name: string,
  parentFolderId: string | null,
  parentKey: string,
  fileId: string | null,
  now: Date,
): DataRoomEntry {
  return Object.assign(new DataRoomEntry(), {
    id: randomUUID(),
    organizationId: access.organizationId!,
    name,
    nameKey: nameKeyOf(name),
    type,
    parentFolderId,
    parentKey,
    fileId,
    createdByUserId: access.userId,
    deletedAt: null,
    created: now,
    updated: now,
  });
}

const movedHow = (before: DataRoomEntryView, after: DataRoomEntryView) =>
  [
    before.name !== after.name ? `renamed to ${after.name}` : null,
    before.parentFolder !== after.parentFolder ? 'moved to another folder' : null,
  ]
    .filter(Boolean)
    .join(', ');
