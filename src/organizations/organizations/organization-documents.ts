import { Injectable } from '@nestjs/common';
import type { Tx } from '../../events';

/**
 * What organizations must know of an organization's documents (whether its document store may
 * still change), answered by the documents module, which registers itself here: organizations
 * never reads documents' tables nor imports that module.
 */
export interface OrganizationDocuments {
  /** Whether the organization has a document or folder in any store (in the caller's transaction). */
  hasDocuments(organizationId: string, tx: Tx): Promise<boolean>;
}

@Injectable()
export class OrganizationDocumentsRegistry {
  private documents?: OrganizationDocuments;

  register(documents: OrganizationDocuments): void {
    this.documents = documents;
  }

  hasDocuments(organizationId: string, tx: Tx): Promise<boolean> {
    // Without the documents module (some service-level tests) nothing can hold documents.
    return this.documents?.hasDocuments(organizationId, tx) ?? Promise.resolve(false);
  }
}
