export { DatabaseModule } from './database.module';
export { AggregateRepository } from './aggregate-repository';
export type { InTransaction } from './aggregate-repository';
export { ForeignKey } from './foreign-key';
export { allowLongStatements } from './statement-limits';
export { CURSOR_BATCH, inBatches } from './cursor';
export { lockUntilCommit } from './advisory-lock';
export { ownedSql } from './owned-sql';
