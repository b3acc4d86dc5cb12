/** The response shapes of the option routes, for their OpenAPI descriptions. */
export const REQUEST_SHAPE =
  '{id, option, quantity, date, paymentMethod, status ("pending", "approved" or "rejected"), created}';

export const OPTION_SHAPE =
  '{id, organization, member, type ("option_iso", "option_nso", "option", "rsu" or "sar"), plan, pool, ' +
  'security (the class it exercises into), quantity, exercisePrice, grantDate, expirationDate, ' +
  'vestingSchedule, vestingStartDate (default the grant date), earlyExercisable, terminationExerciseWindows, status ("active", "exercised", "cancelled", ' +
  'or "expired" when active and past its expiration date), vested (as of today), exercised, cancelled, ' +
  'outstanding, exercisable (by an exercise dated today), pendingRequests: [{id, quantity, date, ' +
  'paymentMethod, status, created}], created, updated}; decimals as strings';
