import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { IncentiveFacts } from '../../cap-table';
import { AccessContext, DomainError } from '../../common';
import { LegalRecordsService } from '../../profiles';
import { cleanName, FileStore, Upload } from './file-store.service';
import { contentTypeOf, extensionOf } from './file-types';
import type { FilePurpose, StoredFile } from './stored-file.entity';
import { StoredFileRepository } from './stored-file.repository';
import { FileRecordView, toFileRecordView } from './stored-file.view';

/**
 * Files whose purpose asks for more than `canViewFile` (which the route's guard decides, the
 * uploader included): a data room document is read by those who may view documents, an imported
 * cap table by those who may view the cap table, whoever uploaded them.
 */
const PURPOSE_PERMISSION: Partial<Record<FilePurpose, string>> = {
  document: 'canViewDocuments',
  import: 'canViewCapTable',
};

/** What an organization file documents (the guard has checked both are the organization's). */
export interface FileLinks {
  plan?: string;
  holding?: string;
}

/**
 * Files outside the data room: an organization's (plan documents, grant agreements...), a
 * profile's (an image becomes its avatar), and their downloads.
 */
@Injectable()
export class FilesService {
  constructor(
    private readonly store: FileStore,
    private readonly files: StoredFileRepository,
    private readonly legalRecords: LegalRecordsService,
    private readonly incentives: IncentiveFacts,
  ) {}

  /**
   * Stores one file of the organization; emits `document.uploaded`. Linked to a plan and a holding
   * at once, the holding must be a grant of that plan: its grantees all see the plan's documents.
   */
  async uploadForOrganization(
    access: AccessContext,
    uploads: Upload[] | undefined,
    links: FileLinks,
  ): Promise<FileRecordView> {
    const organizationId = access.organizationId!;
    if (links.plan && links.holding) {
      const plan = await this.incentives.planOfHolding(organizationId, links.holding);
      if (plan !== links.plan) {
        throw DomainError.badRequest(
          `holding ${links.holding} is not a grant of plan ${links.plan}: a file linked to both ` +
            'is shown to every grantee of the plan',
        );
      }
    }
    const request = {
      organizationId,
      uploadedByUserId: access.userId,
      purpose: 'file' as const,
      planId: links.plan ?? null,
      holdingId: links.holding ?? null,
    };
    const { files } = await this.store.store(uploads, request, async (tx, [file]) => {
      const view = toFileRecordView(file);
      await tx.record({
        type: 'document.uploaded',
        organizationId,
        actorUserId: access.userId,
        object: view,
        description: `file ${file.name}: uploaded`,
      });
    });
    return toFileRecordView(files[0]);
  }

  /**
   * Stores one file of the caller's own profile (only they can read it); an image (PNG, JPEG,
   * GIF, WebP) becomes the profile's avatar in the same transaction. No event: the file belongs to
   * no organization.
   */
  async uploadForProfile(
    userId: string,
    profileId: string,
    uploads: Upload[] | undefined,
  ): Promise<FileRecordView> {
    const avatar = uploads?.length === 1 && isImage(uploads[0]);
    const request = {
      organizationId: null,
      ownerUserId: userId,
      uploadedByUserId: userId,
      purpose: avatar ? ('avatar' as const) : ('file' as const),
    };
    const { files } = await this.store.store(uploads, request, async (tx, [file]) => {
      if (avatar) await this.legalRecords.setAvatar(tx, profileId, file.id);
    });
    return toFileRecordView(files[0]);
  }

  /**
   * A file that is not deleted, and its bytes; 403 when its purpose needs a permission the
   * caller's role lacks in its organization.
   */
  async content(access: AccessContext, id: string): Promise<{ file: StoredFile; bytes: Readable }> {
    const file = await this.files.findLive(id);
    if (!file) throw DomainError.notFound('no such file');
    const needed = PURPOSE_PERMISSION[file.purpose];
    if (needed && !access.permissions.has(needed)) {
      throw DomainError.forbidden(`requires ${needed}`);
    }
    return { file, bytes: await this.store.open(file) };
  }

  /**
   * The files linked to the user's own incentives, oldest first: those of a holding of a member
   * record of theirs, and those of a plan in which such a member holds a grant (only grants carry
   * a plan; not a deleted plan). Only organizations that are not deleted, only member records
   * that are not removed.
   */
  async incentiveDocuments(userId: string): Promise<FileRecordView[]> {
    const held = await this.incentives.heldBy(userId);
    return (await this.files.linkedTo(held.holdings, held.plans)).map(toFileRecordView);
  }
}

const isImage = (u: Upload) =>
  contentTypeOf(extensionOf(cleanName(u.originalname))).startsWith('image/');
