export { useEmbeddedPostgres } from './embedded-postgres';
export type { EmbeddedPostgresHandle } from './embedded-postgres';
