import type { Notification, NotificationDelivery, Paged } from '@cc/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../app/api';

/** In-app notifications (GET /notifications, ours) and a user's delivery ledger (GET /users/{id}/notifications). */
export type NotificationPage = Paged<Notification> & { unread_count: number };

export const NOTIFICATIONS_KEY = ['notifications'] as const;
const PANEL_SIZE = 20;
/** The bell's count is refreshed each minute: reminders are made by an hourly job, so a minute is prompt enough. */
const POLL_MS = 60_000;

export function useNotifications(enabled: boolean) {
  return useQuery({
    queryKey: [...NOTIFICATIONS_KEY, 'panel'],
    enabled,
    refetchInterval: POLL_MS,
    queryFn: async () =>
      (
        await api.get<NotificationPage>('/notifications', {
          params: { per_page: PANEL_SIZE },
          actingAs: false,
        })
      ).data,
  });
}

export function useNotificationActions() {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
  const setRead = useMutation({
    mutationFn: (v: { id: number; read: boolean }) =>
      api.patch(`/notifications/${v.id}`, { read: v.read }, { actingAs: false }),
    onSettled: refresh,
  });
  const dismiss = useMutation({
    mutationFn: (id: number) => api.delete(`/notifications/${id}`, { actingAs: false }),
    onSettled: refresh,
  });
  const readAll = useMutation({
    mutationFn: () => api.post('/notifications/read-all', undefined, { actingAs: false }),
    onSettled: refresh,
  });
  return { setRead, dismiss, readAll };
}

export function useDeliveryLedger(userRef: string, page: number, enabled = true) {
  return useQuery({
    queryKey: [...NOTIFICATIONS_KEY, 'ledger', userRef, page],
    enabled,
    queryFn: async () =>
      (
        await api.get<Paged<NotificationDelivery>>(`/users/${encodeURIComponent(userRef)}/notifications`, {
          params: { page, per_page: 10 },
        })
      ).data,
  });
}
