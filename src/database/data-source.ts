import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadEnv } from '../config';
import { ENTITY_GLOBS, typeormOptions } from './typeorm-options';

/** Data source of the TypeORM CLI (`npm run migration:*`), configured like the app. */
const url = loadEnv().DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledgerline';

export default new DataSource({ ...typeormOptions(url), entities: ENTITY_GLOBS });
