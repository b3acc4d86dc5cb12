/** What a plan enables. */
export class PlanFeaturesView {
  capTable: boolean;
  documents: boolean;
  dataRoom: boolean;
  equityPlans: boolean;
  modeling: boolean;
  ocf: boolean;
}

/** A plan's limits; null = no limit. */
export class PlanLimitsView {
  members: number | null;
  shareholders: number | null;
  /** Organization files, in megabytes. */
  storageMb: number | null;
}

/** What an organization uses of its limits. */
export class PlanUsageView {
  /** Members holding active shares or an active grant, warrant, note or SAFE. */
  members: number;
  /** Members holding active shares. */
  shareholders: number;
}

/** `GET .../features`: the organization's plan. */
export class OrganizationFeaturesView {
  /** `free` (no live subscription), `starter` or `growth`. */
  plan: string;
  /** The live subscription's state in the provider's spelling; null on `free`. */
  status: string | null;
  features: PlanFeaturesView;
  limits: PlanLimitsView;
  usage: PlanUsageView;
}
