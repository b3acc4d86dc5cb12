import type { EntityTarget, ObjectLiteral } from 'typeorm';
import { Security } from '../securities/security.entity';
import { toSecurityView } from '../securities/security.view';
import { Shareholding } from '../shareholdings/shareholding.entity';
import { toShareholdingView } from '../shareholdings/shareholding.view';
import type { ViewKind } from './transactions/definition';

/**
 * How the API shows a record the ledger wrote: its entity (as the change wrote it, or as its table
 * holds it) and its view. Routes answer with these and events carry them, so an event's object is
 * what the record's own route would answer.
 */
export const RECORD_VIEWS: {
  [K in ViewKind]: { entity: EntityTarget<ObjectLiteral>; view(row: never): object };
} = {
  shareholdings: { entity: Shareholding, view: toShareholdingView },
  securities: { entity: Security, view: toSecurityView },
};
