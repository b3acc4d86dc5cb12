export * from './conversion-types';
export * from './post-money-safe';
export * from './pre-money-safe';
export * from './convertible-note';
export * from './price-round';
export * from './financing';
export * from './cap-and-discount';
