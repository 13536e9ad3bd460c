// The campaign list's filters live in the URL (`page`, `status`, `name`) so a filtered list can
// be shared and survives a reload. Changing a filter starts again from page 1.

import { CampaignStatusFilter } from '../../api/gen/model';

export interface CampaignFilters {
  status: CampaignStatusFilter;
  /** Text the name contains; empty for every name. */
  name: string;
}

const STATUSES = Object.values(CampaignStatusFilter) as readonly string[];

export function isStatusFilter(value: string | null): value is CampaignStatusFilter {
  return value !== null && STATUSES.includes(value);
}

/** The filters a URL asks for; an unknown status is `all`, a blank name is none. */
export function filtersFromParams(params: URLSearchParams): CampaignFilters {
  const status = params.get('status');
  return { status: isStatusFilter(status) ? status : 'all', name: (params.get('name') ?? '').trim().slice(0, 100) };
}

/** The URL parameters for `changes` applied to `params`: defaults are left out and the page goes back to 1. */
export function withFilters(params: URLSearchParams, changes: Partial<CampaignFilters>): URLSearchParams {
  const next = new URLSearchParams(params);
  const merged = { ...filtersFromParams(params), ...changes };
  if (merged.status === 'all') next.delete('status');
  else next.set('status', merged.status);
  const name = merged.name.trim();
  if (name) next.set('name', name);
  else next.delete('name');
  next.delete('page');
  return next;
}

/** What the list request sends: `all` and a blank name are not sent. */
export function filterParams(filters: CampaignFilters): { status?: CampaignStatusFilter; name?: string } {
  return { ...(filters.status !== 'all' ? { status: filters.status } : {}), ...(filters.name ? { name: filters.name } : {}) };
}

export const STATUS_LABELS: Record<CampaignStatusFilter, string> = {
  all: 'All statuses',
  active: 'Active',
  paused: 'Paused',
  completed: 'Completed',
  draft: 'Draft',
  error: 'Error',
};
