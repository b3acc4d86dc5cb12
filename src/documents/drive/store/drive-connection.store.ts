import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { IdpGrant, IdpGrantSeal } from '../../../auth';
import { DriveConnection } from './drive-connection.entity';

/** An active connection with its grant opened, and the sealed value it was read from. */
export interface OpenDriveConnection {
  connection: DriveConnection;
  grant: IdpGrant;
  version: string;
}

/** The associated data an organization's sealed grant is bound to. */
const grantAad = (organizationId: string) => `drive-connection:${organizationId}`;

/** The organizations' drive connections (`drive_connection`), their grants sealed. */
@Injectable()
export class DriveConnectionStore {
  private readonly logger = new Logger('DriveSync');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly seal: IdpGrantSeal,
  ) {}

  /** The organization's connection row, active or not. */
  row(organizationId: string, manager?: EntityManager): Promise<DriveConnection | null> {
    return (manager ?? this.dataSource.manager).findOneBy(DriveConnection, { organizationId });
  }

  /**
   * The organization's active connection and its grant. A grant that does not open (another
   * key, a row copied from another organization) is of no use: the connection is deactivated.
   */
  async open(organizationId: string): Promise<OpenDriveConnection | null> {
    const connection = await this.row(organizationId);
    if (!connection?.active || !connection.grantCiphertext) return null;
    const grant = this.seal.open(connection.grantCiphertext, grantAad(organizationId));
    if (!grant) {
      this.logger.warn(`the drive grant of organization ${organizationId} does not open`);
      await this.deactivate(organizationId, 'the stored grant could not be opened: connect again');
      return null;
    }
    return { connection, grant, version: connection.grantCiphertext };
  }

  /**
   * Connects the organization: its one row gets the new grant, active, its error cleared (a
   * reconnect keeps the row's id, and so its configurations, even for another account).
   */
  async connect(organizationId: string, userId: string, grant: IdpGrant): Promise<DriveConnection> {
    const values = {
      email: grant.email,
      grantCiphertext: this.seal.seal(grant, grantAad(organizationId)),
      active: true,
      syncError: null,
      connectedByUserId: userId,
    };
    await this.dataSource.manager
      .createQueryBuilder()
      .insert()
      .into(DriveConnection)
      .values({ id: randomUUID(), organizationId, ...values })
      .orUpdate(Object.keys(values).map(snake), ['organization_id'])
      .execute();
    return (await this.row(organizationId))!;
  }

  /**
   * Replaces the grant read as `version` (a refreshed token) unless another replaced it since;
   * answers the new version, or null.
   */
  async replace(organizationId: string, version: string, grant: IdpGrant): Promise<string | null> {
    const sealed = this.seal.seal(grant, grantAad(organizationId));
    const result = await this.dataSource.manager.update(
      DriveConnection,
      { organizationId, grantCiphertext: version, active: true },
      { grantCiphertext: sealed },
    );
    return result.affected ? sealed : null;
  }

  /** Wipes the grant and leaves the connection inactive (with why, when the provider refused it). */
  async deactivate(organizationId: string, syncError: string | null = null): Promise<void> {
    await this.dataSource.manager.update(
      DriveConnection,
      { organizationId },
      { active: false, grantCiphertext: null, syncError },
    );
  }

  /** Notes a run's outcome on the connection. */
  async noteSync(organizationId: string, at: Date, syncError: string | null): Promise<void> {
    await this.dataSource.manager.update(
      DriveConnection,
      { organizationId },
      { lastSyncAt: at, syncError },
    );
  }
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
