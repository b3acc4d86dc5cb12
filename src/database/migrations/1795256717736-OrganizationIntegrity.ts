import { MigrationInterface, QueryRunner } from "typeorm";

export class OrganizationIntegrity1795256717736 implements MigrationInterface {
    name = 'OrganizationIntegrity1795256717736'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "role" ADD "deleted_at" TIMESTAMP WITH TIME ZONE`);
        // A deleted role's name may be used again (TypeORM does not diff partial-index predicates).
        await queryRunner.query(`DROP INDEX "public"."role_org_name_uq"`);
        await queryRunner.query(`CREATE UNIQUE INDEX "role_org_name_uq" ON "role" ("organization_id", "name") WHERE organization_id IS NOT NULL AND deleted_at IS NULL`);
        await queryRunner.query(`ALTER TABLE "site_admin" ADD CONSTRAINT "FK_c1f49577c341e769679cba7fd3f" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "address" ADD CONSTRAINT "FK_54c170d5fedd92b7265601b1672" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "organization" ADD CONSTRAINT "FK_699d80ba9137133ff58cd5f22ee" FOREIGN KEY ("entity_id") REFERENCES "entity"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "organization" ADD CONSTRAINT "FK_0f31fe3925535afb5462326d7d6" FOREIGN KEY ("address_id") REFERENCES "address"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "role" ADD CONSTRAINT "FK_2c1fc97f79b82800ef15372b98c" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "member" ADD CONSTRAINT "FK_bfadaaab56ae7b5f2d76885d03b" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "member" ADD CONSTRAINT "FK_33b2aec0c43fcad85595baa1d9e" FOREIGN KEY ("role_id") REFERENCES "role"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "member" ADD CONSTRAINT "FK_efc766611e939bdbe6f7088984d" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "member" ADD CONSTRAINT "FK_74fbc25d2e0bf8e3884ac9354b4" FOREIGN KEY ("entity_id") REFERENCES "entity"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "invitation" ADD CONSTRAINT "FK_de7c148c7834d738ac7113f3dd8" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "invitation" ADD CONSTRAINT "FK_2cd02613944c1f9d45bec637b54" FOREIGN KEY ("member_id") REFERENCES "member"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "invitation" ADD CONSTRAINT "FK_40ff1c000f96e3b25c2f4762008" FOREIGN KEY ("role_id") REFERENCES "role"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "invitation" DROP CONSTRAINT "FK_40ff1c000f96e3b25c2f4762008"`);
        await queryRunner.query(`ALTER TABLE "invitation" DROP CONSTRAINT "FK_2cd02613944c1f9d45bec637b54"`);
        await queryRunner.query(`ALTER TABLE "invitation" DROP CONSTRAINT "FK_de7c148c7834d738ac7113f3dd8"`);
        await queryRunner.query(`ALTER TABLE "member" DROP CONSTRAINT "FK_74fbc25d2e0bf8e3884ac9354b4"`);
        await queryRunner.query(`ALTER TABLE "member" DROP CONSTRAINT "FK_efc766611e939bdbe6f7088984d"`);
        await queryRunner.query(`ALTER TABLE "member" DROP CONSTRAINT "FK_33b2aec0c43fcad85595baa1d9e"`);
        await queryRunner.query(`ALTER TABLE "member" DROP CONSTRAINT "FK_bfadaaab56ae7b5f2d76885d03b"`);
        await queryRunner.query(`ALTER TABLE "role" DROP CONSTRAINT "FK_2c1fc97f79b82800ef15372b98c"`);
        await queryRunner.query(`ALTER TABLE "organization" DROP CONSTRAINT "FK_0f31fe3925535afb5462326d7d6"`);
        await queryRunner.query(`ALTER TABLE "organization" DROP CONSTRAINT "FK_699d80ba9137133ff58cd5f22ee"`);
        await queryRunner.query(`ALTER TABLE "address" DROP CONSTRAINT "FK_54c170d5fedd92b7265601b1672"`);
        await queryRunner.query(`ALTER TABLE "site_admin" DROP CONSTRAINT "FK_c1f49577c341e769679cba7fd3f"`);
        await queryRunner.query(`DROP INDEX "public"."role_org_name_uq"`);
        await queryRunner.query(`CREATE UNIQUE INDEX "role_org_name_uq" ON "role" ("organization_id", "name") WHERE organization_id IS NOT NULL`);
        await queryRunner.query(`ALTER TABLE "role" DROP COLUMN "deleted_at"`);
    }

}
