import { Injectable } from '@nestjs/common';
import type { Request } from 'express';

/** What the guard needs to know about an addressed record. */
export interface RecordScope {
  /** The organization the record belongs to; null for personal records (profile, address). */
  organizationId: string | null;
  /** The user the record belongs to, for "self" permissions. */
  ownerUserId?: string | null;
}

export type RecordResolver = (id: string, req: Request) => Promise<RecordScope | null>;

/**
 * Record kind → how to find its organization and owner. Each module registers the records it
 * owns (`member`, `role`, later `holding`, `plan`, `file` ...), so the guard can protect any
 * route addressed by a record id.
 */
@Injectable()
export class RecordResolvers {
  private readonly resolvers = new Map<string, RecordResolver>();

  register(kind: string, resolver: RecordResolver) {
    if (this.resolvers.has(kind)) throw new Error(`Record resolver "${kind}" registered twice`);
    this.resolvers.set(kind, resolver);
  }

  get(kind: string): RecordResolver | undefined {
    return this.resolvers.get(kind);
  }

  kinds(): string[] {
    return [...this.resolvers.keys()];
  }
}
