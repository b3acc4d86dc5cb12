import { createHash } from 'node:crypto';
import { gaxios, OAuth2Client } from 'google-auth-library';
import { DRIVE_READONLY, FakeDrive, FOLDER_MIME } from '../../../test/fakes/drive';
import { OutboundHttp } from '../../common';
import { DriveApi, DriveItem, exportFormat, TooLargeError } from './drive-api';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const DRIVE_SCOPE = `${DRIVE_READONLY} openid email`;

/** The real client (google-auth-library over the outbound base) against FakeDrive. */
describe('DriveApi', () => {
  let fake: FakeDrive;
  let accounts = 0;
  const http = new OutboundHttp({ provider: 'idp', logger: { log() {}, warn() {} } });

  beforeAll(async () => (fake = await FakeDrive.start()));
  afterAll(() => fake.close());

  const newAccount = () => `drive-user-${++accounts}@example.test`;

  /** An OAuth2Client configured as the app's, with no grant yet. */
  const oauthClient = () => {
    const env = fake.env();
    return new OAuth2Client({
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      redirectUri: fake.driveRedirectUri,
      endpoints: {
        oauth2AuthBaseUrl: env.IDP_DRIVE_AUTH_URL,
        oauth2TokenUrl: env.IDP_DRIVE_TOKEN_URL,
        oauth2RevokeUrl: env.IDP_DRIVE_REVOKE_URL,
      },
      transporterOptions: { fetchImplementation: http.asFetch(), retryConfig: { retry: 0 } },
      forceRefreshOnFailure: true,
    });
  };

  /** A DriveApi on a grant exchanged at the fake's token endpoint for `email`. */
  const driveOf = async (
    email: string,
    options: { scope?: string; offline?: boolean } = {},
  ): Promise<DriveApi> => {
    const client = oauthClient();
    const code = fake.issueCode(email, {
      scope: options.scope ?? DRIVE_SCOPE,
      offline: options.offline,
      redirectUri: fake.driveRedirectUri,
    });
    client.setCredentials((await client.getToken({ code })).tokens);
    return new DriveApi(client, fake.env().IDP_DRIVE_API_URL);
  };

  const all = async (items: AsyncIterable<DriveItem>) => {
    const seen: DriveItem[] = [];
    for await (const item of items) seen.push(item);
    return seen;
  };

  const refusal = async (promise: Promise<unknown>) => {
    const err = await promise.then(
      () => {
        throw new Error('expected a refusal');
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(gaxios.GaxiosError);
    const { response } = err as gaxios.GaxiosError;
    return {
      status: response?.status,
      data: response?.data as { error?: unknown } | undefined,
      reason: (response?.data as { error?: { errors?: { reason?: string }[] } })?.error?.errors?.[0]
        ?.reason,
    };
  };

  const withPageSize = async <T>(size: number, run: () => Promise<T>): Promise<T> => {
    fake.maxDrivePageSize = size;
    try {
      return await run();
    } finally {
      fake.maxDrivePageSize = 1000;
    }
  };

  const since = (before: number) => fake.requests.slice(before);

  it('names the connected account', async () => {
    const email = newAccount();
    expect(await (await driveOf(email)).about()).toEqual({ email });
    expect(fake.requests.at(-1)).toMatchObject({
      path: '/drive/v3/about',
      query: { fields: 'user' },
    });
  });

  it('is granted through the drive redirect; an unregistered redirect is refused', async () => {
    const email = newAccount();
    fake.addAccount(email);
    const client = oauthClient();
    const url = client.generateAuthUrl({ scope: [DRIVE_READONLY], state: 's' });
    const { code, state } = await fake.authorize(url, email);
    expect(state).toBe('s');
    client.setCredentials((await client.getToken({ code })).tokens);
    expect(await new DriveApi(client, fake.url).about()).toEqual({ email });

    const wrong = new URL(url);
    wrong.searchParams.set('redirect_uri', `${fake.driveRedirectUri}/`);
    await expect(fake.authorize(wrong.toString(), email)).rejects.toThrow(/redirect_uri_mismatch/);
  });

  it("lists a parent's folders, every page, by name, without files or trashed ones", async () => {
    const email = newAccount();
    const drive = await driveOf(email);
    for (const name of ['delta', 'Alpha', 'charlie', 'bravo']) fake.addFolder(email, { name });
    fake.trashFile(fake.addFolder(email, { name: 'binned' }));
    fake.addFile(email, { name: 'a file.pdf', parentId: 'root', content: Buffer.from('%PDF') });
    const sub = fake.addFolder(email, { name: 'echo' });
    const inner = fake.addFolder(email, { name: 'inner', parentId: sub });
    // Another account's folders are not this grant's.
    fake.addFolder(newAccount(), { name: 'elsewhere' });

    const before = fake.requests.length;
    const folders = await withPageSize(2, () => drive.folders('root'));
    expect(folders.map((f) => f.name)).toEqual(['Alpha', 'bravo', 'charlie', 'delta', 'echo']);
    expect(folders.find((f) => f.name === 'echo')?.id).toBe(sub);
    const pages = since(before);
    expect(pages).toHaveLength(3);
    expect(pages[0].query).toMatchObject({
      q: `'root' in parents and trashed=false and mimeType='${FOLDER_MIME}'`,
      supportsAllDrives: 'true',
      includeItemsFromAllDrives: 'true',
    });
    expect(pages[0].query.pageToken).toBeUndefined();
    expect(pages[1].query.pageToken).toBeDefined();

    expect(await drive.folders(sub)).toEqual([{ id: inner, name: 'inner' }]);
    expect(await drive.folders(inner)).toEqual([]);
    expect(await drive.folders('UnknownFolderId123')).toEqual([]);
  });

  it('stops at 1,000 folders', async () => {
    const email = newAccount();
    const drive = await driveOf(email);
    for (let i = 0; i < 1003; i++) {
      fake.addFolder(email, { name: `f${String(i).padStart(4, '0')}` });
    }
    const before = fake.requests.length;
    const folders = await withPageSize(400, () => drive.folders('root'));
    expect(folders).toHaveLength(1000);
    expect(folders[0].name).toBe('f0000');
    expect(folders[999].name).toBe('f0999');
    expect(since(before)).toHaveLength(3);
  });

  it("lists a folder's files and folders over every page, binary and native", async () => {
    const email = newAccount();
    const drive = await driveOf(email);
    const folder = fake.addFolder(email, { name: 'Board' });
    const content = Buffer.from('minutes of the board');
    const minutes = fake.addFile(email, {
      name: 'minutes.pdf',
      parentId: folder,
      content,
      modifiedTime: '2026-01-02T03:04:05.000Z',
    });
    for (const name of ['a.txt', 'b.txt']) {
      fake.addFile(email, { name, parentId: folder, content: Buffer.from(name) });
    }
    const doc = fake.addNativeFile(email, {
      name: 'Plan',
      parentId: folder,
      kind: 'document',
      modifiedTime: '2026-02-03T04:05:06.000Z',
    });
    fake.addNativeFile(email, { name: 'Numbers', parentId: folder, kind: 'spreadsheet' });
    const sub = fake.addFolder(email, { name: 'Archive', parentId: folder });
    const gone = fake.addFile(email, { name: 'old.txt', parentId: folder, content: content });
    fake.trashFile(gone);

    const before = fake.requests.length;
    const items = await withPageSize(2, () => all(drive.children(folder)));
    expect(items).toHaveLength(6);
    const pages = since(before);
    expect(pages).toHaveLength(3);
    expect(pages[0].query).toMatchObject({
      q: `'${folder}' in parents and trashed=false`,
      pageSize: '100',
      supportsAllDrives: 'true',
      includeItemsFromAllDrives: 'true',
      fields: 'nextPageToken, files(id,name,mimeType,md5Checksum,modifiedTime,size)',
    });
    expect(items.find((i) => i.id === minutes)).toEqual({
      id: minutes,
      name: 'minutes.pdf',
      mimeType: 'application/pdf',
      md5Checksum: createHash('md5').update(content).digest('hex'),
      modifiedTime: '2026-01-02T03:04:05.000Z',
      size: content.length,
      isFolder: false,
      native: false,
    });
    expect(items.find((i) => i.id === doc)).toEqual({
      id: doc,
      name: 'Plan',
      mimeType: 'application/vnd.google-apps.document',
      modifiedTime: '2026-02-03T04:05:06.000Z',
      isFolder: false,
      native: true,
    });
    expect(items.find((i) => i.id === sub)).toMatchObject({ isFolder: true, native: false });
    expect(items.map((i) => i.id)).not.toContain(gone);
  });

  it('downloads a binary file as its exact bytes', async () => {
    const email = newAccount();
    const drive = await driveOf(email);
    const content = Buffer.alloc(300_000, Buffer.from(Array.from({ length: 256 }, (_, i) => i)));
    const id = fake.addFile(email, { name: 'all-bytes.bin', parentId: 'root', content });
    expect((await drive.download(id, content.length)).equals(content)).toBe(true);
    expect(fake.requests.at(-1)?.query).toMatchObject({ alt: 'media' });
  });

  it.each([
    ['with', true],
    ['without', false],
  ])('refuses a download over the cap %s a Content-Length', async (_, sendLength) => {
    const email = newAccount();
    const drive = await driveOf(email);
    const id = fake.addFile(email, { name: 'big.bin', content: Buffer.alloc(200_000, 7) });
    fake.sendContentLength = sendLength;
    try {
      await expect(drive.download(id, 199_999)).rejects.toBeInstanceOf(TooLargeError);
      expect((await drive.download(id, 200_000)).length).toBe(200_000);
    } finally {
      fake.sendContentLength = true;
    }
  });

  it('answers the API refusal for a native file or an unknown id', async () => {
    const email = newAccount();
    const drive = await driveOf(email);
    const doc = fake.addNativeFile(email, { name: 'Plan', kind: 'document' });
    expect(await refusal(drive.download(doc, 1000))).toMatchObject({
      status: 403,
      reason: 'fileNotDownloadable',
    });
    expect(await refusal(drive.download('NoSuchFile', 1000))).toMatchObject({
      status: 404,
      reason: 'notFound',
    });
  });

  it('exports a Doc as docx and a Sheet as xlsx', async () => {
    const email = newAccount();
    const drive = await driveOf(email);
    const doc = fake.addNativeFile(email, { name: 'Plan', kind: 'document' });
    const sheet = fake.addNativeFile(email, { name: 'Numbers', kind: 'spreadsheet' });
    const docx = await drive.export(doc, DOCX);
    expect(docx.subarray(0, 4)).toEqual(Buffer.from('PK\x03\x04', 'latin1'));
    expect(docx.equals(fake.exportOf(doc, DOCX))).toBe(true);
    expect(fake.requests.at(-1)).toMatchObject({
      path: `/drive/v3/files/${doc}/export`,
      query: { mimeType: DOCX },
    });
    expect((await drive.export(sheet, XLSX)).equals(fake.exportOf(sheet, XLSX))).toBe(true);
    // A conversion the type has not, or a binary file, is the API's 400.
    expect(await refusal(drive.export(sheet, DOCX))).toMatchObject({ status: 400 });
    const pdf = fake.addFile(email, { name: 'x.pdf', content: Buffer.from('%PDF-1.4') });
    expect(await refusal(drive.export(pdf, DOCX))).toMatchObject({ status: 400 });
  });

  it('refuses an export too large for Drive, or over the cap given', async () => {
    const email = newAccount();
    const drive = await driveOf(email);
    const huge = fake.addNativeFile(email, {
      name: 'Huge',
      kind: 'document',
      exportTooLarge: true,
    });
    expect(await refusal(drive.export(huge, DOCX))).toMatchObject({
      status: 403,
      reason: 'exportSizeLimitExceeded',
    });
    const doc = fake.addNativeFile(email, { name: 'Plan', kind: 'document' });
    await expect(drive.export(doc, DOCX, 10)).rejects.toBeInstanceOf(TooLargeError);
  });

  it('maps the native types to what they are stored as', () => {
    const native = (kind: string) => exportFormat(`application/vnd.google-apps.${kind}`);
    expect(native('document')).toEqual({ mimeType: DOCX, extension: 'docx' });
    expect(native('spreadsheet')).toEqual({ mimeType: XLSX, extension: 'xlsx' });
    expect(native('presentation')).toEqual({ mimeType: 'application/pdf', extension: 'pdf' });
    expect(native('drawing')).toEqual({ mimeType: 'application/pdf', extension: 'pdf' });
    expect(native('form')).toBeNull();
    expect(native('folder')).toBeNull();
    expect(exportFormat('application/pdf')).toBeNull();
  });

  it("never shows one account another's files", async () => {
    const owner = newAccount();
    const folder = fake.addFolder(owner, { name: 'Private' });
    const file = fake.addFile(owner, {
      name: 'p.txt',
      parentId: folder,
      content: Buffer.from('p'),
    });
    const other = await driveOf(newAccount());
    expect(await all(other.children(folder))).toEqual([]);
    expect(await refusal(other.download(file, 100))).toMatchObject({ status: 404 });
  });

  it('surfaces the 401 of a revoked access token, and invalid_grant once the refresh is refused', async () => {
    const email = newAccount();
    const withoutRefresh = await driveOf(email, { offline: false });
    const withRefresh = await driveOf(email);
    fake.revokeGrantsOf(email);
    expect(await refusal(withoutRefresh.about())).toMatchObject({
      status: 401,
      data: { error: { status: 'UNAUTHENTICATED' } },
    });
    expect(await refusal(withRefresh.about())).toMatchObject({
      status: 400,
      data: { error: 'invalid_grant' },
    });
  });

  it('is refused without the drive scope', async () => {
    const drive = await driveOf(newAccount(), { scope: 'openid email' });
    expect(await refusal(drive.about())).toMatchObject({
      status: 403,
      data: { error: { status: 'PERMISSION_DENIED' } },
    });
  });

  it('refuses an id that is not a Drive id before any request', async () => {
    const drive = await driveOf(newAccount());
    const before = fake.requests.length;
    const injected = "x' in parents or name contains '";
    await expect(drive.folders(injected)).rejects.toThrow(/not a Drive folder id/);
    expect(() => drive.children('')).toThrow(/not a Drive folder id/);
    expect(() => drive.children('a'.repeat(129))).toThrow(/not a Drive folder id/);
    await expect(drive.download('../about', 10)).rejects.toThrow(/not a Drive file id/);
    await expect(drive.export('a/b', DOCX)).rejects.toThrow(/not a Drive file id/);
    expect(fake.requests).toHaveLength(before);
  });

  it('the fake answers only the listing queries the app sends', async () => {
    const client = oauthClient();
    const email = newAccount();
    client.setCredentials(
      (
        await client.getToken({
          code: fake.issueCode(email, { scope: DRIVE_SCOPE, redirectUri: fake.driveRedirectUri }),
        })
      ).tokens,
    );
    const list = (q: string) =>
      client.request({ url: `${fake.url}/drive/v3/files`, params: { q } });
    expect(await refusal(list("name contains 'x'"))).toMatchObject({
      status: 400,
      data: { error: { status: 'INVALID_ARGUMENT' } },
    });
    expect(
      (
        await list(
          "'root' in parents and trashed=false and mimeType!='application/vnd.google-apps.folder'",
        )
      ).data,
    ).toEqual({ files: [] });
  });
});
