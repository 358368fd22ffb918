import type { ExportFormat, Paged, PresetOption, ReportPreset, ReportSchedule } from '@cc/contracts';
import { api, type Envelope } from '../app/api';
import { presetReportBody } from './logic';

/** Calls of the presets and schedules screens (spec 2 §7 "Reports"; schedules: permission 117). */
export const PRESETS = '/reports/presets';
export const SCHEDULES = '/reports/schedules';

export async function fetchPresets(params: { page: number; search?: string; per_page?: number }) {
  return (await api.get<Paged<ReportPreset>>(PRESETS, { params })).data;
}
export async function fetchSchedules(params: { page: number; search?: string }) {
  return (await api.get<Paged<ReportSchedule>>(SCHEDULES, { params })).data;
}

export type OptionKind = 'entities' | 'users' | 'roles' | 'courses';

/**
 * Choices for a preset's id lists, from the server's own scope rule for the preset's entity (the same rule a save
 * is checked against), by search or by the ids already chosen.
 */
export async function fetchOptions(
  kind: OptionKind,
  entityId: number | null,
  query: { search?: string; ids?: number[] },
): Promise<PresetOption[]> {
  const res = await api.get<Envelope<PresetOption[]>>(`${PRESETS}/options/${kind}`, {
    params: {
      acting_as_id: entityId ?? undefined,
      search: query.search || undefined,
      ids: query.ids?.length ? query.ids.join(',') : undefined,
    },
  });
  return res.data.data;
}

/** Runs a saved preset now as a file (POST /report, spec 2 §7): the certificate report or the compliance matrix. */
export const runPreset = (preset: ReportPreset, format: ExportFormat) =>
  api.post<Blob>('/report', presetReportBody(preset, format));
