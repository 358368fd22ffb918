import type { EntityDataProtection, UserDataProtection } from '@cc/contracts';
import { type ApiResponse, api, type Envelope } from '../app/api';
import { downloadFile } from '../native/files';

/** Data protection (issue 35 §4, docs/data-protection.md): the calls of the person's page and the organisation's. */
export const userDataProtectionKey = (userId: number) => ['data-protection', 'user', userId] as const;
export const entityDataProtectionKey = (slug: string) => ['data-protection', 'entity', slug] as const;

export async function fetchUserDataProtection(userId: number): Promise<UserDataProtection> {
  return (await api.get<Envelope<UserDataProtection>>(`/users/${userId}/data-protection`)).data.data;
}

export async function saveLeavingDate(userId: number, leftOn: string | null) {
  return (await api.put<Envelope<UserDataProtection>>(`/users/${userId}/leaving-date`, { left_on: leftOn }))
    .data;
}

export async function erasePerson(userId: number, confirmName: string) {
  return (
    await api.post<Envelope<UserDataProtection>>(`/users/${userId}/erase`, { confirm_name: confirmName })
  ).data;
}

export async function fetchRetention(slug: string): Promise<EntityDataProtection> {
  return (
    await api.get<Envelope<EntityDataProtection>>(`/entities/${encodeURIComponent(slug)}/data-protection`)
  ).data.data;
}

export async function saveRetention(slug: string, years: number) {
  return (
    await api.put<Envelope<EntityDataProtection>>(`/entities/${encodeURIComponent(slug)}/data-protection`, {
      retention_years: years,
    })
  ).data;
}

const FAILED = 'Their data could not be downloaded. Try again.';

/** GET /users/{id}/personal-data.pdf, saved under the server's file name. */
export function downloadPersonalDataPdf(userId: number): Promise<boolean> {
  return downloadFile(() => api.get<Blob>(`/users/${userId}/personal-data.pdf`), {
    fallbackName: `personal-data-${userId}.pdf`,
    failure: FAILED,
  });
}

/** GET /users/{id}/personal-data: the api client parses the JSON, so it is saved again as a file. */
export function downloadPersonalDataJson(userId: number): Promise<boolean> {
  return downloadFile(
    async () => {
      const res = await api.get<unknown>(`/users/${userId}/personal-data`);
      const blob = new Blob([JSON.stringify(res.data, null, 2)], { type: 'application/json' });
      return { ...res, data: blob } as ApiResponse<Blob>;
    },
    { name: `personal-data-${userId}.json`, fallbackName: 'personal-data.json', failure: FAILED },
  );
}
