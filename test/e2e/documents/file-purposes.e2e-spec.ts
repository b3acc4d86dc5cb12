import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import type { TestApp } from '../../support/app';
import { errorBody } from '../../support/errors';
import { memberAgent } from '../../support/orgs';
import { appWithTempStorage } from '../../support/temp-storage';
import { incentiveTable } from '../cap-table/holdings-fixtures';
import { pdf } from './upload-fixtures';

/** Who may read a stored file through `GET /v1/file/:file/content`: the permission of its purpose. */
describe('stored files: the permission of their purpose', () => {
  let t: TestApp;
  let db: DataSource;
  appWithTempStorage((app) => {
    t = app;
    db = app.get(DataSource);
  });

  const IMPORT_HEADER =
    'holderName,holderEmail,security,classType,quantity,pricePerShare,issueDate,certificateNumber';

  const contentPaths = (id: string) => [`/v1/file/${id}/content`, `/v1/file/${id}/content/x.csv`];

  describe('GET /v1/file/:file/content by the file’s purpose', () => {
    /** An organization with an imported CSV, a data room document and a plain file. */
    async function filesOfEveryPurpose() {
      const x = await incentiveTable(t);
      const { owner, org } = x;
      const imported = await owner.agent
        .post(`/v1/organization/${org.id}/import`)
        .attach(
          'file',
          Buffer.from(`${IMPORT_HEADER}\nAda,,Common,common,10,,2024-01-15,C-1\n`),
          'cap table.csv',
        )
        .expect(201);
      const [entry] = (
        await owner.agent
          .post(`/v1/organization/${org.id}/document`)
          .attach('file', pdf('board minutes'), 'minutes.pdf')
          .expect(201)
      ).body;
      const [{ fileId: documentFile }] = await db.query(
        'SELECT file_id AS "fileId" FROM document WHERE id = $1',
        [entry.id],
      );
      const plain = (
        await owner.agent
          .post(`/v1/organization/${org.id}/file`)
          .attach('file', pdf('a plan'), 'plan.pdf')
          .expect(201)
      ).body;
      return { ...x, importFile: imported.body.file.id as string, documentFile, plain };
    }

    /** A member whose custom role holds only `permissions`. */
    async function memberWith(owner: Agent, org: string, permissions: string[]) {
      const role = await owner
        .post(`/v1/organization/${org}/role`)
        .send({ name: `Only ${permissions.join(' ')}`, permissions })
        .expect(201);
      return memberAgent(t, owner, org, role.body.id);
    }

    it('an import file needs canViewCapTable and a data room document canViewDocuments', async () => {
      const x = await filesOfEveryPurpose();
      const fileReader = await memberWith(x.owner.agent, x.org.id, [
        'canViewOrganization',
        'canViewFile',
      ]);
      for (const id of [x.importFile, x.documentFile]) {
        for (const path of contentPaths(id)) {
          await fileReader.agent.get(path).expect(403).expect(errorBody(403));
        }
      }
      // The organization's other files keep their rule: canViewFile is enough.
      await fileReader.agent.get(`/v1/file/${x.plain.id}/content`).expect(200);

      // Each permission opens its own purpose, and only it.
      const capTableReader = await memberWith(x.owner.agent, x.org.id, [
        'canViewFile',
        'canViewCapTable',
      ]);
      await capTableReader.agent.get(`/v1/file/${x.importFile}/content`).expect(200);
      await capTableReader.agent.get(`/v1/file/${x.documentFile}/content`).expect(403);
      const documentReader = await memberWith(x.owner.agent, x.org.id, [
        'canViewFile',
        'canViewDocuments',
      ]);
      await documentReader.agent.get(`/v1/file/${x.documentFile}/content`).expect(200);
      await documentReader.agent.get(`/v1/file/${x.importFile}/content`).expect(403);
    });

    it('Viewers, Editors and the Owner still read every purpose; a Shareholder none', async () => {
      const x = await filesOfEveryPurpose();
      const viewer = await memberAgent(t, x.owner.agent, x.org.id, 'Viewer');
      const editor = await memberAgent(t, x.owner.agent, x.org.id, 'Editor');
      const shareholder = await memberAgent(t, x.owner.agent, x.org.id, 'Shareholder');
      for (const id of [x.importFile, x.documentFile, x.plain.id]) {
        for (const path of contentPaths(id)) {
          for (const reader of [x.owner.agent, viewer.agent, editor.agent]) {
            await reader.get(path).expect(200);
          }
          await shareholder.agent.get(path).expect(403);
        }
      }
    });

    it('the uploader of an import who no longer may view the cap table is refused', async () => {
      const x = await filesOfEveryPurpose();
      const editor = await memberAgent(t, x.owner.agent, x.org.id, 'Editor');
      const imported = await editor.agent
        .post(`/v1/organization/${x.org.id}/import`)
        .attach(
          'file',
          Buffer.from(`${IMPORT_HEADER}\nBo,,Common B,common,5,,2024-01-16,\n`),
          'more.csv',
        )
        .expect(201);
      await editor.agent.get(`/v1/file/${imported.body.file.id}/content`).expect(200);
      await x.owner.agent
        .patch(`/v1/organization/${x.org.id}/member/${editor.member.id}`)
        .send({ role: 'Shareholder' })
        .expect(200);
      await editor.agent.get(`/v1/file/${imported.body.file.id}/content`).expect(403);
    });
  });
});
