import { Injectable } from '@nestjs/common';
import { SecretBox } from '../../../common';

/** What a grant of the identity provider holds, in the clear only in memory. */
export interface IdpGrant {
  accessToken: string;
  /** Null when the provider gave none (the access token then works until it expires). */
  refreshToken: string | null;
  /** When the access token expires (epoch ms); null when the provider did not say. */
  expiryDate: number | null;
  /** The connected account's e-mail; null when the provider did not share it. */
  email: string | null;
}

/** A stored grant and the sealed value it was read from (its version: each sealing differs). */
export interface StoredIdpGrant {
  grant: IdpGrant;
  version: string;
}

/**
 * How every grant is stored: its tokens and e-mail as one JSON value sealed by SecretBox
 * (AES-256-GCM) bound to associated data naming its owner (`idp-contact-grant:<user>`,
 * `drive-connection:<organization>`), so a row copied to another owner opens for no one.
 * Each store keeps its own table; this is the one way they seal.
 */
@Injectable()
export class IdpGrantSeal {
  constructor(private readonly box: SecretBox) {}

  seal(grant: IdpGrant, owner: string): string {
    return this.box.encrypt(JSON.stringify(grant), owner);
  }

  /** The grant sealed for `owner`, or null when it does not open (another key, another owner). */
  open(ciphertext: string, owner: string): IdpGrant | null {
    try {
      return JSON.parse(this.box.decrypt(ciphertext, owner)) as IdpGrant;
    } catch {
      return null;
    }
  }
}
