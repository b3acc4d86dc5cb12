export { DocumentsModule } from './documents.module';
// The OCF export names its zip as downloads are named (RFC 6266, with an ASCII fallback).
export { asciiName } from './files/file-download';
// Quantities as certificates print them (4,000,000), for labels elsewhere.
export { numberInFigures } from './certificates/quantity-words';
