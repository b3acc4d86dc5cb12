import { ConsoleLogger, LogLevel } from '@nestjs/common';
import { currentRequestId } from './request-context';

const LEVELS: LogLevel[] = ['error', 'warn', 'log', 'debug', 'verbose'];

/** Nest's console logger with the current request id in every line written during a request. */
export class AppLogger extends ConsoleLogger {
  constructor(level: LogLevel = 'log') {
    super('Ledgerline', { logLevels: LEVELS.slice(0, LEVELS.indexOf(level) + 1) });
  }

  protected formatContext(context: string): string {
    const id = currentRequestId();
    const base = super.formatContext(context);
    return id ? `${base}[req ${id}] ` : base;
  }
}
