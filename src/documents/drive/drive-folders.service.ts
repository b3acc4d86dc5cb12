import { Injectable } from '@nestjs/common';
import { providerFailure, providerUnavailable, unexpected } from '../../auth';
import { DomainError } from '../../common';
import { Env } from '../../config';
import { DriveAccess, DriveGrantRefused, GRANT_REFUSED } from './drive-access';
import { DriveApi } from './drive-api';
import type { DriveFolderView } from './google-drive.view';

/** The connected drive's folders, for picking one to sync. */
@Injectable()
export class DriveFolders {
  constructor(
    private readonly access: DriveAccess,
    private readonly env: Env,
  ) {}

  /** The folders directly in `parentId` (`root`: the top level), by name. */
  async list(organizationId: string, parentId = 'root'): Promise<DriveFolderView[]> {
    try {
      return await this.access.use(organizationId, (client) =>
        new DriveApi(client, this.env.IDP_DRIVE_API_URL).folders(parentId),
      );
    } catch (err) {
      // The grant is noted as refused on the connection: the organization must connect again.
      if (err instanceof DriveGrantRefused)
        throw DomainError.keyed('driveNotConnected', GRANT_REFUSED);
      const failure = providerFailure(err);
      if (failure === 'unavailable') throw providerUnavailable();
      if (failure === 'refused') {
        // Drive answers 404 for a folder the account cannot see.
        const status = (err as { response?: { status?: number } }).response?.status;
        if (status === 404) throw DomainError.notFound(`no drive folder ${parentId}`);
      }
      throw unexpected(`drive folders of organization ${organizationId}`, err);
    }
  }
}
