import { createStore, useStore } from '../../app/store';
import { readSecure, writeSecure } from '../secure-token';
import type { PinRecord } from './pin';

/**
 * Shared-tablet records, all in secure storage: whether the mode is on, who joined, and per person their token,
 * PIN hash, wrong-PIN count and saved local items. Each person's keys carry their user id, so nothing is shared.
 */
export interface TabletMember {
  id: number;
  name: string;
  email: string;
}

export interface TabletState {
  enabled: boolean;
  members: TabletMember[];
}

export const tabletStore = createStore<TabletState>({ enabled: false, members: [] });

export function useTablet(): TabletState {
  return useStore(tabletStore);
}

const MODE_KEY = 'tablet.mode';
const MEMBERS_KEY = 'tablet.members';
export const memberKeys = (id: number) => ({
  token: `tablet.${id}.token`,
  pin: `tablet.${id}.pin`,
  failures: `tablet.${id}.failures`,
  items: `tablet.${id}.items`,
});

async function readJsonSecure<T>(key: string): Promise<T | null> {
  const raw = await readSecure(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export async function loadTablet(): Promise<TabletState> {
  const state = {
    enabled: (await readSecure(MODE_KEY)) === 'on',
    members: (await readJsonSecure<TabletMember[]>(MEMBERS_KEY)) ?? [],
  };
  tabletStore.set(state);
  return state;
}

export async function setTabletEnabled(enabled: boolean): Promise<void> {
  await writeSecure(MODE_KEY, enabled ? 'on' : null);
  tabletStore.set((s) => ({ ...s, enabled }));
}

export function isMember(id: number | null | undefined): boolean {
  return id != null && tabletStore.get().members.some((m) => m.id === id);
}

async function saveMembers(members: TabletMember[]): Promise<void> {
  await writeSecure(MEMBERS_KEY, members.length ? JSON.stringify(members) : null);
  tabletStore.set((s) => ({ ...s, members }));
}

export async function addMember(member: TabletMember, token: string, pin: PinRecord): Promise<void> {
  const keys = memberKeys(member.id);
  await writeSecure(keys.token, token);
  await writeSecure(keys.pin, JSON.stringify(pin));
  await writeSecure(keys.failures, null);
  const others = tabletStore.get().members.filter((m) => m.id !== member.id);
  await saveMembers([...others, member].sort((a, b) => a.name.localeCompare(b.name)));
}

export async function forgetMember(id: number): Promise<void> {
  for (const key of Object.values(memberKeys(id))) await writeSecure(key, null);
  await saveMembers(tabletStore.get().members.filter((m) => m.id !== id));
}

export const readMemberToken = (id: number) => readSecure(memberKeys(id).token);
export const writeMemberToken = (id: number, token: string) => writeSecure(memberKeys(id).token, token);
export const readMemberPin = (id: number) => readJsonSecure<PinRecord>(memberKeys(id).pin);

export async function readFailures(id: number): Promise<number> {
  return Number(await readSecure(memberKeys(id).failures)) || 0;
}

export async function writeFailures(id: number, count: number): Promise<void> {
  await writeSecure(memberKeys(id).failures, count ? String(count) : null);
}

export const readMemberItems = (id: number) => readJsonSecure<Record<string, string>>(memberKeys(id).items);
export const writeMemberItems = (id: number, items: Record<string, string>) =>
  writeSecure(memberKeys(id).items, JSON.stringify(items));
