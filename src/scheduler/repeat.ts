// A lease's renewal timer lives in common (its upload slots renew leases too); the scheduler's
// modules keep importing it from here.
export { repeatEvery } from '../common';
