import 'reflect-metadata';
import type { Env } from '../config';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A period in milliseconds, or read from the configuration; 0 (or less): never by itself. */
export type Period = number | ((env: Env) => number);

export interface ScheduledOptions {
  /** The job's name across instances (its turns are Redis keys under the app's prefix). */
  name: string;
  /** How often it runs across all instances together. */
  every: Period;
}

export interface RetentionOptions {
  /**
   * The module whose table it is (its folder under src/, the declaring file's: the architecture
   * check holds it so): the delete statement is that module's SQL.
   */
  owner: string;
  /** The job's name across instances. */
  name: string;
  /** The table, one of the declaring module's own (only its owner's SQL names a table). */
  table: string;
  /** The column, or an expression over the table's columns, a row's age is counted from. */
  age: string;
  /** Rows whose `age` is older than this (milliseconds) go. */
  olderThan: Period;
  /** What else a row must match to go (SQL over the table's columns, no parameters). */
  where?: string;
  /** The table's key, as a row value (`id`, or `(user_id, key)`): what a batch selects. */
  key?: string;
  /** How often it runs across instances; a day unless said. */
  every?: Period;
  /** Rows one statement deletes (1,000 unless said). */
  batch?: number;
  /** Statements one run makes at most (100 unless said): a run stays short whatever piled up. */
  batchesPerRun?: number;
}

const SCHEDULED = Symbol('scheduled');
const RETENTIONS = Symbol('retentions');

/**
 * Runs the decorated method of a provider every `every`, once per period across instances (the
 * first instance to take the period's turn in Redis runs it). Its failure is logged and the next
 * period tries again; it never reaches the process.
 */
export function Scheduled(options: ScheduledOptions): MethodDecorator {
  return (_target, _key, descriptor) => {
    Reflect.defineMetadata(SCHEDULED, options, descriptor.value as object);
  };
}

/**
 * Declares that the provider's module keeps the rows of one of its tables only so long: once per
 * `every` (a day by default) across instances, the rows older than `olderThan` are deleted in
 * bounded batches. Several may be stacked on one class.
 */
export function Retention(options: RetentionOptions): ClassDecorator {
  return (target) => {
    const declared = (Reflect.getOwnMetadata(RETENTIONS, target) ?? []) as RetentionOptions[];
    Reflect.defineMetadata(RETENTIONS, [...declared, options], target);
  };
}

export const scheduledOf = (method: unknown): ScheduledOptions | undefined =>
  typeof method === 'function'
    ? (Reflect.getMetadata(SCHEDULED, method) as ScheduledOptions | undefined)
    : undefined;

export const retentionsOf = (type: unknown): RetentionOptions[] =>
  typeof type === 'function'
    ? ((Reflect.getOwnMetadata(RETENTIONS, type) ?? []) as RetentionOptions[])
    : [];
