export { ActivityModule } from './activity.module';
