/** The envelope of spec section 6: what every queue job and outbound webhook carries. */
export interface EventEnvelope {
  id: string;
  type: string;
  api_version: string;
  created: string;
  organization: string | null;
  actor: string | null;
  /** What happened, in words (activity log); not part of outbound deliveries. */
  description: string | null;
  /** Members who may see the event as the holder of its records; not part of outbound deliveries. */
  subjects: string[];
  data: {
    object: Record<string, unknown>;
    previous_attributes: Record<string, unknown>;
  };
}

/** Date-based version of the event payloads (spec section 9.4). */
export const API_VERSION = '2026-11-01';
