import type { ErrorEnvelope } from '@cc/contracts';
import { userWords } from '../whitelabel/words';
import { createStore } from './store';
import { whitelabelStore } from './whitelabel';

export type NotificationType = 'success' | 'info' | 'warning' | 'error';
export interface Notification {
  id: number;
  type: NotificationType;
  message: string;
  /** Milliseconds before it goes by itself; 0 keeps it until dismissed. */
  timeout: number;
}

/** Notifications are added and removed by id (spec 1 §3, spec 2 §4). */
export const notificationsStore = createStore<Notification[]>([]);
let nextId = 1;

export function addNotification(input: {
  type?: NotificationType;
  message: string;
  timeout?: number;
}): number {
  const id = nextId++;
  const type = input.type ?? 'info';
  // Every notice in the organisation's words, permission failures in plain words (whitelabel/words.ts).
  const message = userWords(input.message, whitelabelStore.get());
  const timeout = input.timeout ?? (type === 'error' ? 0 : 5000);
  notificationsStore.set((list) => [...list, { id, type, message, timeout }]);
  if (timeout > 0) setTimeout(() => removeNotification(id), timeout);
  return id;
}

export function removeNotification(id: number): void {
  notificationsStore.set((list) => (list.some((n) => n.id === id) ? list.filter((n) => n.id !== id) : list));
}

export const notifySuccess = (message: string) => addNotification({ type: 'success', message });
export const notifyInfo = (message: string) => addNotification({ type: 'info', message });

/** Spec 1 §8 generic error notice: the server message plus the JSON of the errors field. */
export function errorNoticeText(data: Partial<ErrorEnvelope> | null | undefined, fallback: string): string {
  const message = data?.message || fallback;
  return data?.errors && Object.keys(data.errors).length
    ? `${message} ${JSON.stringify(data.errors)}`
    : message;
}

export function notifyError(data: Partial<ErrorEnvelope> | null | undefined, fallback: string): number {
  return addNotification({ type: 'error', message: errorNoticeText(data, fallback) });
}
