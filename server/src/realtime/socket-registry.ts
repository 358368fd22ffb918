import type { WebSocket } from 'ws';
import { announceSignOut } from '../auth/sign-out';
import type { CacheBus } from '../db/cache-bus';

/**
 * The open websockets of this process, by whose credential opened them (issue 11 §4): when a session or device token
 * ends (logout, password change or reset, expiry, a user ending it from "Sessions and devices"), its sockets must stop
 * streaming at once, not live on until the client hangs up. The rows are the truth; this registry only lets the code
 * that deletes a row close the sockets it knows of. The sockets held by the other server processes are closed by them:
 * closeSocketsEverywhere tells every process through the cache bus (db/cache-bus.ts); should the bus be down,
 * such a socket dies at its next subscribe, which checks the credential again (realtime/routes.ts).
 */
export interface SocketOwner {
  userId: number;
  sessionId?: string;
  tokenId?: number;
}

/** Close code for "your sign-in ended" (4401: the 4000 private range, mirroring HTTP 401). */
export const SIGNED_OUT_CLOSE_CODE = 4401;
const SIGNED_OUT_MESSAGE = JSON.stringify({ type: 'error', status: 401, message: 'Unauthenticated.' });

const open = new Map<WebSocket, SocketOwner>();
/** Every open socket, signed in or not: a shutdown closes them all (http/shutdown.ts). */
const every = new Set<WebSocket>();

/** Counts a socket among this process's open sockets until it closes. */
export function trackSocket(socket: WebSocket): void {
  every.add(socket);
  socket.once('close', () => every.delete(socket));
}

export function openSockets(): WebSocket[] {
  return [...every];
}

/** Remembers a socket for its owner's credential until it closes; the returned function forgets it sooner. */
export function registerSocket(socket: WebSocket, owner: SocketOwner): () => void {
  open.set(socket, owner);
  const forget = () => {
    if (open.get(socket) === owner) open.delete(socket);
  };
  socket.once('close', forget);
  return forget;
}

/** Tells the client why, then closes: the client's close handler stops its streams and shows the sign-in. */
export function closeSignedOut(socket: WebSocket): void {
  open.delete(socket);
  if (socket.readyState === socket.OPEN) socket.send(SIGNED_OUT_MESSAGE);
  if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING)
    socket.close(SIGNED_OUT_CLOSE_CODE, 'signed out');
}

const matches = (owner: SocketOwner, which: Partial<SocketOwner>) =>
  (which.sessionId !== undefined && owner.sessionId === which.sessionId) ||
  (which.tokenId !== undefined && owner.tokenId === which.tokenId) ||
  (which.userId !== undefined && owner.userId === which.userId);

const kept = (owner: SocketOwner, keep: { sessionId?: string; tokenId?: number }) =>
  (keep.sessionId !== undefined && owner.sessionId === keep.sessionId) ||
  (keep.tokenId !== undefined && owner.tokenId === keep.tokenId);

/**
 * Closes this process's sockets opened with the session, the token, or by the user (any that match), except those of
 * `keep` (a password change keeps the caller's own). Call it after the session or token row is gone (after commit):
 * a socket closed before would be reopened with a credential that still works. Answers how many it closed.
 */
export function closeSocketsOf(
  which: Partial<SocketOwner>,
  keep: { sessionId?: string; tokenId?: number } = {},
): number {
  let closed = 0;
  for (const [socket, owner] of [...open]) {
    if (!matches(owner, which) || kept(owner, keep)) continue;
    closeSignedOut(socket);
    closed++;
  }
  return closed;
}

/**
 * closeSocketsOf in every server process: this one's at once, the others' within milliseconds (auth/sign-out.ts: the
 * cache bus's 'sign-out', cluster/process-caches.ts). The sign-in's row must be gone first (see closeSocketsOf).
 */
export function closeSocketsEverywhere(
  bus: CacheBus,
  which: Partial<SocketOwner>,
  keep: { sessionId?: string; tokenId?: number } = {},
): void {
  announceSignOut(bus, which, keep);
}

/** Sockets of each id the periodic sweep deleted (main.ts), in every server process. */
export function closeSocketsOfEnded(
  bus: CacheBus,
  ended: { sessionIds: string[]; tokenIds: number[] },
): void {
  for (const sessionId of ended.sessionIds) closeSocketsEverywhere(bus, { sessionId });
  for (const tokenId of ended.tokenIds) closeSocketsEverywhere(bus, { tokenId });
}
