import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Issue 38: every instance must seal and open secrets with the same ENCRYPTION_KEY (a sealed
 * grant that does not open is deleted, so a wrongly keyed instance destroys other users' grants).
 * The key in use is remembered by a keyed fingerprint (HMAC-SHA256 under the key, never the key
 * nor a plain hash of it): one row, written by the first instance that starts, compared by every
 * later one (see src/database/encryption-key-check.ts).
 */
export class EncryptionKeyFingerprint1798610000000 implements MigrationInterface {
    name = 'EncryptionKeyFingerprint1798610000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "encryption_key_fingerprint" ("id" smallint NOT NULL DEFAULT 1, "fingerprint" text NOT NULL, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "encryption_key_fingerprint_pkey" PRIMARY KEY ("id"), CONSTRAINT "encryption_key_fingerprint_one_row" CHECK ("id" = 1))`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "encryption_key_fingerprint"`);
    }
}
