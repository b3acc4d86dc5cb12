/**
 * SQL a module's exported function writes for other modules to embed (organizations'
 * `memberUserSql` inside the cap table's queries, a record resolver inside the access query),
 * marked with its owner: the tests' query log reads the tables inside the marks as the owner's
 * SQL, not the embedding module's. `owner` is the writing module's folder under src/ (the
 * architecture check holds each call to its own file's module). A comment: PostgreSQL ignores it.
 */
export const ownedSql = (owner: string, sql: string): string =>
  `/*owned-by ${owner} {*/ ${sql} /*}*/`;
