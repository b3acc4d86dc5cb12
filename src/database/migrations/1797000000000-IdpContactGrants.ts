import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Referral (issue 25): each user's grant of the identity provider's contacts, its tokens and
 * e-mail sealed in one value, one row per user.
 */
export class IdpContactGrants1797000000000 implements MigrationInterface {
    name = 'IdpContactGrants1797000000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "idp_contact_grant" ("user_id" uuid NOT NULL, "grant_ciphertext" text NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0c5c42303f74e4a985dbf4af882" PRIMARY KEY ("user_id"))`);
        await queryRunner.query(`ALTER TABLE "idp_contact_grant" ADD CONSTRAINT "FK_0c5c42303f74e4a985dbf4af882" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "idp_contact_grant" DROP CONSTRAINT "FK_0c5c42303f74e4a985dbf4af882"`);
        await queryRunner.query(`DROP TABLE "idp_contact_grant"`);
    }
}
