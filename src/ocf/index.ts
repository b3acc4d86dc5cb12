export { OcfModule } from './ocf.module';
