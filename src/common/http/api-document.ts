import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * The app's own OpenAPI document, for modules that describe routes to others (the agent's tools
 * take their input schemas from it). `setupApp` gives the source; the document is built at the
 * first `get`, once.
 */
@Injectable()
export class ApiDocument {
  private source?: () => Promise<OpenAPIObject>;
  private document?: Promise<OpenAPIObject>;

  provide(source: () => Promise<OpenAPIObject>) {
    this.source = source;
  }

  get(): Promise<OpenAPIObject> {
    if (!this.source) throw new Error('setupApp provides the API document');
    return (this.document ??= this.source());
  }
}
