export { DocumentsModule } from './documents.module';
