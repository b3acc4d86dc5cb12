import { AdvancedConsoleLogger, type QueryRunner } from 'typeorm';

/** Told the text of every statement a connection sends, as it sends it (synchronously). */
export type StatementObserver = (sql: string) => void;

const observers = new Set<StatementObserver>();

/**
 * Adds an observer of every statement; answers its removal. Only the test harness observes (its
 * query log, test/support/query-log.ts); without observers a statement costs one empty loop.
 */
export function observeStatements(observer: StatementObserver): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

/** Tells the observers of a statement sent past TypeORM (a prepared statement on the pool). */
export function statementSent(sql: string): void {
  for (const observer of observers) observer(sql);
}

/** TypeORM's default logger, which tells the observers first. */
export class ObservedLogger extends AdvancedConsoleLogger {
  logQuery(query: string, parameters?: unknown[], queryRunner?: QueryRunner) {
    statementSent(query);
    super.logQuery(query, parameters, queryRunner);
  }
}
