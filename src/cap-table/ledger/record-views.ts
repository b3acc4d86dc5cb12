import type { EntityTarget, ObjectLiteral } from 'typeorm';
import { CapitalChange } from '../capital-changes/capital-change.entity';
import { toCapitalChangeView } from '../capital-changes/capital-change.view';
import { Legend } from '../legends/legend.entity';
import { toLegendView } from '../legends/legend.view';
import { Security } from '../securities/security.entity';
import { toSecurityView } from '../securities/security.view';
import { Shareholding } from '../shareholdings/shareholding.entity';
import { toShareholdingView } from '../shareholdings/shareholding.view';
import { Valuation } from '../valuations/valuation.entity';
import { toValuationView } from '../valuations/valuation.view';
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
  legends: { entity: Legend, view: toLegendView },
  valuations: { entity: Valuation, view: toValuationView },
  capitalChanges: { entity: CapitalChange, view: toCapitalChangeView },
};
