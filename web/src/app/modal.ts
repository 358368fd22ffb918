import { MODAL_DEFAULTS } from '@cc/contracts';
import { createStore, useStore } from './store';

/**
 * Named modals (spec 1 §2, §3): per name a visibility flag, a data payload and a stacking order. Shown or
 * hidden by name from anywhere; the <Modal name=…> component renders it. Announces before-open (with its
 * data) and before-close events. The first open modal stacks at z-index 99, each one above it one higher.
 */
export interface ModalEntry {
  visible: boolean;
  data: unknown;
  order: number;
}
export type ModalState = Record<string, ModalEntry>;

export const modalStore = createStore<ModalState>({});

export type ModalEventName = 'before-open' | 'before-close';
export interface ModalEventDetail {
  name: string;
  data?: unknown;
}
export const modalEvents = new EventTarget();

export function onModalEvent(event: ModalEventName, handler: (detail: ModalEventDetail) => void): () => void {
  const listener = (e: Event) => handler((e as CustomEvent<ModalEventDetail>).detail);
  modalEvents.addEventListener(event, listener);
  return () => modalEvents.removeEventListener(event, listener);
}

export function showModal(name: string, data?: unknown): void {
  modalEvents.dispatchEvent(new CustomEvent('before-open', { detail: { name, data } }));
  modalStore.set((state) => {
    const open = Object.entries(state).filter(([key, m]) => m.visible && key !== name);
    const order = open.length ? Math.max(...open.map(([, m]) => m.order)) + 1 : 0;
    return { ...state, [name]: { visible: true, data, order } };
  });
}

export function hideModal(name: string): void {
  const entry = modalStore.get()[name];
  if (!entry?.visible) return;
  modalEvents.dispatchEvent(new CustomEvent('before-close', { detail: { name, data: entry.data } }));
  modalStore.set((state) => ({ ...state, [name]: { ...entry, visible: false } }));
}

export function modalZIndex(entry: Pick<ModalEntry, 'order'>): number {
  return MODAL_DEFAULTS.zIndexStart + entry.order;
}

export function useModal<T = unknown>(name: string) {
  const entry = useStore(modalStore, (s) => s[name]);
  return {
    visible: entry?.visible ?? false,
    data: entry?.data as T | undefined,
    zIndex: modalZIndex(entry ?? { order: 0 }),
    show: (data?: T) => showModal(name, data),
    hide: () => hideModal(name),
  };
}
