import type { CommandRun, LedgerCommand } from './command';
import type { TransactionType } from './transaction-types';
import { definitionOf } from './transactions';
import type { CommandOutcome, TransactionFacts } from './transactions/definition';

/** A run's outcome as a one-transaction command's definition reads it. */
export function outcomeOf<T extends TransactionType>(run: CommandRun): CommandOutcome<T> {
  const [step] = run.steps;
  if (!step) return { ...run, transactionId: null, payload: null };
  return {
    ...run,
    transactionId: step.id,
    effectiveDate: step.effectiveDate,
    payload: step.payload,
  } as unknown as TransactionFacts<T>;
}

/** The command of one transaction type, as its definition declares it (see `LedgerWriter.run`). */
export function commandOf<T extends TransactionType>(type: T): LedgerCommand<unknown> {
  const definition = definitionOf(type);
  const command = definition.command;
  if (!command) throw new Error(`${type} has no command: it is written by imports only`);
  const event = definition.event;
  return {
    name: type,
    scope: (input) => command.scope(input),
    load: command.load && ((input, reads) => command.load!(input, reads)),
    prepare: (state, input, context) => {
      const prepared = command.prepare(state, input, context);
      return prepared ? [{ type, ...prepared } as never] : [];
    },
    event: event && {
      type: event.type,
      public: event.public,
      audience: event.audience,
      before: (_input, steps) => event.before?.(steps[0].payload as never) ?? [],
      describe: (run, input, answer) =>
        event.describe(outcomeOf<T>(run) as TransactionFacts<T>, answer, input),
    },
  };
}
