/** The environment as read: the process's text, or what a test passes. */
export type RawEnv = Record<string, unknown>;

/**
 * One named, typed part of the configuration, as @nestjs/config's `registerAs`: the class that
 * declares (with defaults) and validates the variables one module or concern reads, and the rules
 * that span several variables. `Reads` is what those rules read: the slice itself, and any other
 * slice named in the type of `check`'s argument, so a dependency between slices is visible where
 * it is made (and the compiler holds `Env` to it).
 */
export interface ConfigSlice<T extends object = object, Reads extends object = T> {
  /** The README's heading and the `.env.example` section of the slice. */
  readonly name: string;
  /** Declares and validates the variables; also the token a module injects to read them. */
  readonly schema: new () => T;
  /** Problems (`  NAME: why`) of the variables taken together; run after every slice is read. */
  readonly check?: (env: Reads, raw: RawEnv) => string[];
}

export const configSlice = <T extends object, Reads extends object = T>(
  slice: ConfigSlice<T, Reads>,
): ConfigSlice<T, Reads> => slice;

/** The variables a slice declares: the fields of its class, each holding its default. */
export const variablesOf = (slice: Pick<ConfigSlice, 'schema'>): string[] =>
  Object.keys(new slice.schema());

/**
 * What a check parsed from the text (hook mappings, reward cards), kept on the configuration under
 * a symbol: off `Object.keys`, which lists the variables, and carried into a slice's view.
 */
export function keepParsed(env: object, key: symbol, value: unknown): void {
  Object.defineProperty(env, key, { value, enumerable: false, configurable: true });
}

export const readParsed = <V>(env: object, key: symbol): V | undefined =>
  (env as Record<symbol, V | undefined>)[key];

/**
 * The slice's own instance holding the validated values of its variables (and what its checks
 * parsed): what a module that injects the slice receives.
 */
export function viewOf<T extends object>(env: NoInfer<T>, schema: new () => T): T {
  const view = new schema();
  for (const key of Object.keys(view)) {
    (view as Record<string, unknown>)[key] = (env as Record<string, unknown>)[key];
  }
  for (const key of Object.getOwnPropertySymbols(env)) {
    Object.defineProperty(view, key, Object.getOwnPropertyDescriptor(env, key)!);
  }
  return view;
}
