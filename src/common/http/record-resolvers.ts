import { Injectable } from '@nestjs/common';

/**
 * How to find the organization and owner of one kind of record, as SQL: a query selecting
 * `organization_id` and `owner_user_id` of the record whose id is `{id}` (`{organization}` is the
 * path organization, or null). The permission guard embeds it in its single access query (and
 * keeps its first row), so deciding access to any record costs one round trip.
 */
export interface RecordResolver {
  sql: string;
}

/**
 * Record kind → resolver. Each module registers the records it owns (`member`, `role`, later
 * `shareholding`, `plan`, `file` ...), so the guard can protect any route addressed by a record id
 * and no service repeats an access check.
 */
@Injectable()
export class RecordResolvers {
  private readonly resolvers = new Map<string, RecordResolver>();

  register(kind: string, sql: string) {
    if (this.resolvers.has(kind)) throw new Error(`Record resolver "${kind}" registered twice`);
    this.resolvers.set(kind, { sql });
  }

  get(kind: string): RecordResolver | undefined {
    return this.resolvers.get(kind);
  }

  kinds(): string[] {
    return [...this.resolvers.keys()];
  }
}
