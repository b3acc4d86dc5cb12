import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { AccessContext, DomainError } from '../../common';
import { Env } from '../../config';
import { previousAttributes, Tx, UnitOfWork } from '../../events';
import { cleanName, FileStore, Upload } from '../files/file-store.service';
import { contentTypeOf, extensionOf } from '../files/file-types';
import {
  CreateFolderDto,
  ListDocumentsQuery,
  MoveEntryDto,
  TOP_LEVEL,
} from '../data-room/data-room.dto';
import { DataRoomEntryView } from '../data-room/data-room.view';
import { entryEvent } from '../data-room/entry-event';
import { entryNameProblem, nameKeyOf } from '../data-room/entry-name';
import { DriveItem, GraphDrive } from './graph-drive';
import { SuiteItemRepository } from './suite-item.repository';

/** A suite file ready to send, as a data room file is. */
export interface SuiteContent {
  file: { name: string; size: number; contentType: string };
  name: string;
  bytes: Readable;
}

/** Entries one whole-tree listing may walk: each folder is one Graph call (or more). */
const MAX_TREE_ENTRIES = 5_000;

/**
 * The productivity-suite store: an organization's documents in its own folder of the drive
 * (`<MICROSOFT_ROOT_FOLDER>/<organization id>`), shown and changed as data room entries are, by
 * our ids (the index). The drive decides names (Graph refuses a taken one, 409, whatever its
 * case); each write records the data room's event once the drive has changed.
 */
@Injectable()
export class SuiteStore {
  constructor(
    private readonly drive: GraphDrive,
    private readonly index: SuiteItemRepository,
    private readonly files: FileStore,
    private readonly uow: UnitOfWork,
    private readonly env: Env,
  ) {}

  /** The JSON of the whole tree (flat) or of one folder's entries, folders first, then by name. */
  async list(organizationId: string, query: ListDocumentsQuery): Promise<string> {
    const root = await this.rootOf(organizationId);
    const folder = query.parentFolder;
    let items: DriveItem[];
    if (folder === undefined) {
      items = await this.tree(root);
    } else {
      const parent = folder === TOP_LEVEL ? root : (await this.folder(organizationId, folder)).id;
      items = await this.drive.children(parent);
    }
    const views = await this.views(organizationId, root, items);
    views.sort(
      (a, b) =>
        Number(a.type !== 'folder') - Number(b.type !== 'folder') ||
        nameKeyOf(a.name).localeCompare(nameKeyOf(b.name)),
    );
    return JSON.stringify(views);
  }

  /** A file's content, named as the item is now (a folder has none: 404). */
  async content(organizationId: string, id: string): Promise<SuiteContent> {
    const item = await this.itemOf(organizationId, id);
    if (item.folder || !item.file)
      throw DomainError.notFound('a folder has no content: only files do');
    return {
      file: {
        name: item.name,
        size: item.size ?? 0,
        contentType: contentTypeOf(extensionOf(item.name)),
      },
      name: item.name,
      bytes: await this.drive.download(item.id),
    };
  }

  /**
   * Stores the files in the folder: `POST document` one, `document/many` several. A name taken
   * in the folder or repeated in the request → 409 before anything is stored; a later failure
   * removes what the request had stored. `alongside` writes the caller's own rows in the
   * transaction that indexes the files.
   */
  async upload(
    access: AccessContext,
    uploads: Upload[] | undefined,
    parentFolder: string | null,
    many: boolean,
    alongside?: (tx: Tx, views: DataRoomEntryView[]) => Promise<void>,
  ): Promise<DataRoomEntryView[]> {
    const organizationId = access.organizationId!;
    const given = (uploads ?? []).filter(
      (u) => u.fieldname === undefined || u.fieldname === 'file',
    );
    if (uploads?.length && given.length !== uploads.length) {
      throw DomainError.badRequest('files go in the form field "file"');
    }
    const checked = this.files.check(given);
    if (!many && checked.length > 1) {
      throw DomainError.badRequest(
        'this store takes one file per request here: send several to POST document/many',
      );
    }
    const names = checked.map((u) => cleanName(u.originalname));
    for (const name of names) {
      const problem = entryNameProblem(name);
      if (problem) throw DomainError.badRequest(`file name ${name} ${problem}`);
    }
    const root = await this.rootOf(organizationId);
    const parent = parentFolder ? (await this.folder(organizationId, parentFolder)).id : root;
    const keys = names.map(nameKeyOf);
    const taken = new Set((await this.drive.children(parent)).map((i) => nameKeyOf(i.name)));
    const clashes = [
      ...new Set(names.filter((n, i) => taken.has(keys[i]) || keys.indexOf(keys[i]) !== i)),
    ];
    if (clashes.length) {
      throw DomainError.conflict(
        `already in this folder (names are compared whatever their case): ${clashes.join(', ')}`,
      );
    }
    const stored: DriveItem[] = [];
    try {
      for (const [i, u] of checked.entries()) {
        stored.push(
          await this.drive.upload(parent, names[i], u.buffer, contentTypeOf(extensionOf(names[i]))),
        );
      }
      return await this.uow.run(async (tx) => {
        const views = await this.views(organizationId, root, stored, tx);
        await tx.record(
          ...views.map((view) =>
            entryEvent(access, 'document.uploaded', view, `document ${view.name}: uploaded`),
          ),
        );
        await alongside?.(tx, views);
        return views;
      });
    } catch (err) {
      for (const item of stored) await this.drive.remove(item.id).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Gives a file new content, as the data room's `replaceContent`: the item keeps its id (ours
   * and the drive's), name and folder, `document.uploaded` is recorded. The content must keep the
   * file's type (400); a folder, or an item gone from the index or the drive, is 404. The drive
   * changes first and cannot be rolled back: should the transaction fail, the item holds the new
   * bytes while `alongside`'s rows still name the old version, and the next write sends them again.
   */
  async replaceContent(
    access: AccessContext,
    id: string,
    content: Upload,
    alongside?: (tx: Tx, view: DataRoomEntryView) => Promise<void>,
  ): Promise<DataRoomEntryView> {
    const organizationId = access.organizationId!;
    const [checked] = this.files.check([content]);
    const root = await this.rootOf(organizationId);
    const item = await this.itemOf(organizationId, id);
    if (item.folder || !item.file) throw DomainError.notFound('no such document');
    const contentType = contentTypeOf(extensionOf(cleanName(checked.originalname)));
    if (contentTypeOf(extensionOf(item.name)) !== contentType) {
      throw DomainError.badRequest(
        `${item.name} keeps its type; the new content would be served as ${contentType}`,
      );
    }
    const replaced = await this.drive.replaceContent(item.id, checked.buffer, contentType);
    return this.uow.run(async (tx) => {
      const [view] = await this.views(organizationId, root, [replaced], tx);
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
  }

  /**
   * Our id of the folder at `path` (names from the top level; null for the top level itself),
   * made where missing with `folder.created`, as the data room's `folderAt`. A file in the way is
   * 409; a segment that is no valid name, 400.
   */
  async folderAt(access: AccessContext, path: string[]): Promise<string | null> {
    const organizationId = access.organizationId!;
    const root = await this.rootOf(organizationId);
    let parent = root;
    for (const name of path) {
      const problem = entryNameProblem(name);
      if (problem) throw DomainError.badRequest(`folder name ${name} ${problem}`);
      const found = (await this.drive.children(parent)).find(
        (i) => nameKeyOf(i.name) === nameKeyOf(name),
      );
      if (found && !found.folder)
        throw DomainError.conflict(`${found.name} is a file, not a folder`);
      parent = found ? found.id : (await this.newFolder(access, root, parent, name)).id;
    }
    return parent === root ? null : (await this.index.idsOf(organizationId, [parent])).get(parent)!;
  }

  /** Whether the organization's document is still there: in the index and in the drive. */
  async exists(organizationId: string, id: string): Promise<boolean> {
    return this.itemOf(organizationId, id).then(
      (item) => !item.folder,
      (err: unknown) => {
        if (err instanceof DomainError && err.status === 404) return false;
        throw err;
      },
    );
  }

  async createFolder(access: AccessContext, dto: CreateFolderDto): Promise<DataRoomEntryView> {
    const organizationId = access.organizationId!;
    const root = await this.rootOf(organizationId);
    const parent = dto.parentFolder
      ? (await this.folder(organizationId, dto.parentFolder)).id
      : root;
    return (await this.newFolder(access, root, parent, dto.name)).view;
  }

  /** Makes a folder in the drive, indexes it and records `folder.created` (409: name taken). */
  private async newFolder(
    access: AccessContext,
    root: string,
    parentItemId: string,
    name: string,
  ): Promise<{ id: string; view: DataRoomEntryView }> {
    const created = await this.drive.createFolder(parentItemId, name);
    const view = await this.uow.run(async (tx) => {
      const [made] = await this.views(access.organizationId!, root, [created], tx);
      await tx.record(entryEvent(access, 'folder.created', made, `folder ${made.name}: created`));
      return made;
    });
    return { id: created.id, view };
  }

  /**
   * Renames and/or moves an item, by the data room's rules: 409 for a name taken in the
   * destination (the drive's answer) or a folder moved into its own subtree; 400 for a file
   * renamed to another type.
   */
  async move(access: AccessContext, id: string, dto: MoveEntryDto): Promise<DataRoomEntryView> {
    const organizationId = access.organizationId!;
    const root = await this.rootOf(organizationId);
    const item = await this.itemOf(organizationId, id);
    const [before] = await this.views(organizationId, root, [item]);
    const destination =
      dto.parentFolder === undefined
        ? undefined
        : dto.parentFolder === null
          ? root
          : (await this.folder(organizationId, dto.parentFolder)).id;
    if (item.folder && destination && (await this.isWithin(destination, item.id, root))) {
      throw DomainError.conflict('a folder cannot move into itself or one of its subfolders');
    }
    if (
      !item.folder &&
      contentTypeOf(extensionOf(dto.name)) !== contentTypeOf(extensionOf(item.name))
    ) {
      throw DomainError.badRequest(
        `name: a file keeps its type; ${dto.name} would not be served as ${contentTypeOf(extensionOf(item.name))}`,
      );
    }
    const moves = destination !== undefined && destination !== item.parentReference?.id;
    if (dto.name === item.name && !moves) return before;
    const changed = await this.drive.update(item.id, {
      ...(dto.name !== item.name ? { name: dto.name } : {}),
      ...(moves ? { parentId: destination } : {}),
    });
    return this.uow.run(async (tx) => {
      const [after] = await this.views(organizationId, root, [changed], tx);
      const how = [
        before.name !== after.name ? `renamed to ${after.name}` : null,
        before.parentFolder !== after.parentFolder ? 'moved to another folder' : null,
      ]
        .filter(Boolean)
        .join(', ');
      await tx.record({
        ...entryEvent(access, 'document.moved', after, `${after.type} ${before.name}: ${how}`),
        previous: previousAttributes(before, after),
      });
      return after;
    });
  }

  /** Deletes an item; a folder with entries only `recursive`ly (else 409). */
  async remove(access: AccessContext, id: string, recursive: boolean): Promise<void> {
    const organizationId = access.organizationId!;
    const root = await this.rootOf(organizationId);
    const item = await this.itemOf(organizationId, id);
    const inside = item.folder ? await this.tree(item.id) : [];
    if (inside.length && !recursive) {
      throw DomainError.conflict(
        'the folder is not empty: delete it with ?recursive=true to delete everything in it',
      );
    }
    const [view] = await this.views(organizationId, root, [item]);
    await this.drive.remove(item.id);
    await this.uow.run(async (tx) => {
      await this.index.forget(organizationId, [item.id, ...inside.map((i) => i.id)], tx);
      await tx.record(
        entryEvent(
          access,
          'document.deleted',
          view,
          `${view.type} ${view.name}: deleted` +
            (inside.length ? ` with the ${inside.length} entries in it` : ''),
        ),
      );
    });
  }

  /**
   * The drive item of the organization's folder, made on first use along MICROSOFT_ROOT_FOLDER
   * (a folder made meanwhile by another request is found again: the drive refuses the second).
   */
  private async rootOf(organizationId: string): Promise<string> {
    const known = await this.index.rootOf(organizationId);
    if (known) return known;
    let parent = 'root';
    for (const segment of [
      ...this.env.MICROSOFT_ROOT_FOLDER.split('/').filter(Boolean),
      organizationId,
    ]) {
      parent = await this.folderNamed(parent, segment);
    }
    return this.index.setRoot(organizationId, parent);
  }

  private async folderNamed(parent: string, name: string): Promise<string> {
    const find = async () =>
      (await this.drive.children(parent)).find(
        (i) => i.folder && nameKeyOf(i.name) === nameKeyOf(name),
      );
    const found = await find();
    if (found) return found.id;
    try {
      return (await this.drive.createFolder(parent, name)).id;
    } catch (err) {
      const again = err instanceof DomainError && err.status === 409 ? await find() : undefined;
      if (!again) throw err;
      return again.id;
    }
  }

  /** The drive item of one of the organization's entries (404 when the drive no longer has it). */
  private async itemOf(organizationId: string, id: string): Promise<DriveItem> {
    const row = await this.index.find(organizationId, id);
    if (!row) throw DomainError.notFound('no such document');
    return this.drive.item(row.itemId);
  }

  /** A folder given as `parentFolder`: unknown → 404, a file → 400 (as in the data room). */
  private async folder(organizationId: string, id: string): Promise<DriveItem> {
    const item = await this.itemOf(organizationId, id);
    if (!item.folder) throw DomainError.badRequest('parentFolder is a file, not a folder');
    return item;
  }

  /** Whether `folderId` is `candidate` or lies inside it (walking up to the organization's folder). */
  private async isWithin(folderId: string, candidate: string, root: string): Promise<boolean> {
    let current: string | undefined = folderId;
    for (let depth = 0; current && current !== root && depth < 100; depth++) {
      if (current === candidate) return true;
      current = (await this.drive.item(current)).parentReference?.id;
    }
    return false;
  }

  /** Everything under a folder, breadth first. */
  private async tree(folderId: string): Promise<DriveItem[]> {
    const all: DriveItem[] = [];
    const queue = [folderId];
    while (queue.length) {
      const children = await this.drive.children(queue.shift()!);
      all.push(...children);
      if (all.length > MAX_TREE_ENTRIES) {
        throw DomainError.payloadTooLarge(
          `more than ${MAX_TREE_ENTRIES} documents and folders: list one folder at a time (?parentFolder)`,
        );
      }
      queue.push(...children.filter((c) => c.folder).map((c) => c.id));
    }
    return all;
  }

  /** Items as entries, in their order; their parents by our ids (null: the top level). */
  private async views(
    organizationId: string,
    root: string,
    items: DriveItem[],
    tx?: Parameters<SuiteItemRepository['idsOf']>[2],
  ): Promise<DataRoomEntryView[]> {
    const parents = items
      .map((i) => i.parentReference?.id)
      .filter((p): p is string => Boolean(p) && p !== root);
    const ids = await this.index.idsOf(
      organizationId,
      [...new Set([...items.map((i) => i.id), ...parents])],
      tx,
    );
    return items.map((item): DataRoomEntryView => {
      const parent = item.parentReference?.id;
      return {
        id: ids.get(item.id)!,
        name: item.name,
        type: item.folder ? 'folder' : 'file',
        parentFolder: parent && parent !== root ? ids.get(parent)! : null,
        ...(item.folder
          ? {}
          : { size: item.size ?? 0, contentType: contentTypeOf(extensionOf(item.name)) }),
        created: new Date(item.createdDateTime ?? 0).toISOString(),
      };
    });
  }
}
