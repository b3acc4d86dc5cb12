import { randomUUID } from 'node:crypto';
import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import { IdpOAuth } from '../../src/auth';
import { DriveConnectionStore } from '../../src/documents/drive/store/drive-connection.store';
import { DriveSyncConfiguration } from '../../src/documents/drive/store/drive-sync-configuration.entity';
import { DRIVE_READONLY, FakeDrive } from '../fakes/drive';
import type { TestApp } from './app';
import { binary } from './binary';

/** What the sync tests share: files, a connected drive, configurations, runs and the documents. */

export const MB = 1024 * 1024;
export const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`, 'latin1');
export const txt = (text: string) => Buffer.from(`${text}\n`, 'utf8');
export const documentsPath = (org: string) => `/v1/organization/${org}/document`;

/** One entry of `POST .../google-drive/sync`'s answer. */
export interface SyncResult {
  configurationId: string;
  status: string;
  filesProcessed: number;
  filesAdded: number;
  filesUpdated: number;
  filesSkipped: number;
  filesFailed: number;
}

export const counts = (added: number, updated: number, skipped: number, failed: number) => ({
  filesProcessed: added + updated + skipped + failed,
  filesAdded: added,
  filesUpdated: updated,
  filesSkipped: skipped,
  filesFailed: failed,
});

/**
 * Connects a new drive account to `org` as the routes would, without the browser: a code the
 * fake issued for the drive scope, exchanged by the app's OAuth client and stored sealed.
 */
export async function connectDrive(
  t: TestApp,
  drive: FakeDrive,
  org: string,
  userId: string,
): Promise<string> {
  const email = `drive-${randomUUID()}@example.test`;
  const code = drive.issueCode(email, {
    scope: `${DRIVE_READONLY} openid email`,
    redirectUri: drive.driveRedirectUri,
  });
  const tokens = await t.get<IdpOAuth>(IdpOAuth).exchange('drive', code, 'x');
  await t.get<DriveConnectionStore>(DriveConnectionStore).connect(org, userId, {
    accessToken: tokens.access_token!,
    refreshToken: tokens.refresh_token ?? null,
    expiryDate: tokens.expiry_date ?? null,
    email,
  });
  return email;
}

/** A sync configuration of `org` for the drive folder (enabled, into the top level, all types). */
export async function configureSync(
  db: DataSource,
  org: string,
  createdByUserId: string,
  idpFolderId: string,
  options: Partial<DriveSyncConfiguration> = {},
): Promise<string> {
  const id = randomUUID();
  await db.getRepository(DriveSyncConfiguration).insert({
    id,
    organizationId: org,
    idpFolderId,
    idpFolderName: 'Synced',
    targetDataRoomPath: '',
    syncEnabled: true,
    syncSubfolders: false,
    fileTypeFilter: '',
    createdByUserId,
    deletedAt: null,
    ...options,
  });
  return id;
}

/** Runs the organization's configurations (or the one named) and answers their results. */
export async function syncNow(
  agent: Agent,
  org: string,
  configurationId?: string,
): Promise<SyncResult[]> {
  const res = await agent
    .post(`/v1/organization/${org}/google-drive/sync`)
    .send({ organization: org, configurationId });
  if (res.status !== 200) throw new Error(`sync: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { results: SyncResult[] }).results;
}

export interface ListedEntry {
  id: string;
  name: string;
  type: string;
  parentFolder: string | null;
}

/** The organization's document list, with its ETag (none for the suite store). */
export async function listDocuments(agent: Agent, org: string) {
  const res = await agent.get(documentsPath(org)).expect(200);
  return { etag: res.headers.etag as string | undefined, entries: res.body as ListedEntry[] };
}

export const documentContent = async (agent: Agent, org: string, id: string) =>
  (
    await agent
      .get(`${documentsPath(org)}/${id}/content`)
      .buffer(true)
      .parse(binary as never)
      .expect(200)
  ).body as Buffer;
