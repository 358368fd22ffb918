import type {
  Paged,
  WebhookAttemptView,
  WebhookDeliveryStatus,
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookEventTypeDoc,
} from '@cc/contracts';
import { keepPreviousData, type QueryClient, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../app/api';
import { type ChangeOptions, runChange } from '../app/change';

/** The calls of /webhooks (contracts webhooks.ts) through THE api client; query keys under ['webhooks']. */

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: (page: number) => ['webhooks', 'list', page] as const,
  one: (id: number) => ['webhooks', 'endpoint', id] as const,
  deliveries: (id: number, page: number, status?: WebhookDeliveryStatus) =>
    ['webhooks', 'endpoint', id, 'deliveries', page, status ?? 'all'] as const,
  eventTypes: ['webhook-event-types'] as const,
};

export function useWebhooks(page: number) {
  return useQuery({
    queryKey: webhookKeys.list(page),
    placeholderData: keepPreviousData,
    queryFn: async () => (await api.get<Paged<WebhookEndpointView>>('/webhooks', { params: { page } })).data,
  });
}

export function useWebhook(id: number | null) {
  return useQuery({
    queryKey: webhookKeys.one(id ?? 0),
    enabled: Boolean(id),
    queryFn: async () => (await api.get<Envelope<WebhookEndpointView>>(`/webhooks/${id}`)).data.data,
  });
}

export function useDeliveries(id: number, page: number, status?: WebhookDeliveryStatus) {
  return useQuery({
    queryKey: webhookKeys.deliveries(id, page, status),
    placeholderData: keepPreviousData,
    // Pending deliveries change on their own (retries): look again while any is shown.
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === 'pending') ? 10_000 : false),
    queryFn: async () =>
      (
        await api.get<Paged<WebhookDeliveryView>>(`/webhooks/${id}/deliveries`, {
          params: { page, status },
        })
      ).data,
  });
}

export function useEventTypes() {
  return useQuery({
    queryKey: webhookKeys.eventTypes,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => (await api.get<Envelope<WebhookEventTypeDoc[]>>('/webhooks/event-types')).data.data,
  });
}

export interface EndpointForm {
  url: string;
  description: string | null;
  event_types: string[];
  enabled: boolean;
  entity?: string;
}

export const createWebhook = (body: EndpointForm) =>
  api.post<Envelope<WebhookEndpointView>>('/webhooks', body);
export const updateWebhook = (id: number, body: Partial<EndpointForm>) =>
  api.patch<Envelope<WebhookEndpointView>>(`/webhooks/${id}`, body);
export const deleteWebhook = (id: number) => api.delete<{ message?: string }>(`/webhooks/${id}`);
export const rotateSecret = (id: number) =>
  api.post<Envelope<WebhookEndpointView>>(`/webhooks/${id}/rotate-secret`, {});
export const sendTest = (id: number) => api.post<Envelope<WebhookAttemptView>>(`/webhooks/${id}/test`, {});
export const resend = (deliveryId: number) =>
  api.post<Envelope<WebhookAttemptView>>(`/webhooks/deliveries/${deliveryId}/resend`, {});

/**
 * Runs a change: shows the server's message, refreshes every webhooks query; a failure shows the server's message
 * unless `quietErrors` (a form shows its own) and is rethrown, so a dialog stays open with what was typed.
 */
export const webhookAction = <T = unknown>(
  queryClient: QueryClient,
  request: () => Promise<{ data?: { message?: string; data?: T } | null }>,
  success: string,
  options?: ChangeOptions,
) => runChange<T>(queryClient, [webhookKeys.all], request, success, options);

/** What an attempt's outcome says to a care manager. */
export function attemptSummary(a: WebhookAttemptView): string {
  if (a.succeeded) return `Delivered (answer ${a.response_code}) in ${a.duration_ms} ms.`;
  if (a.response_code !== null) return `Not delivered: the endpoint answered ${a.response_code}.`;
  return `Not delivered: ${a.error ?? 'no answer'}`;
}
