export * from './schedule';
export * from './allocation';
export * from './vesting-dates';
export * from './vesting-events';
export * from './vested';
export * from './acceleration';
export * from './project';
export * from './vested-on';
