export { RedisModule, RedisConnections } from './redis.module';
