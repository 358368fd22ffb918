/**
 * The small durable key-value store offline learning keeps its copies and its queue in. In the browser and the
 * shell's webview it is IndexedDB (survives reloads, restarts and going offline; a write is durable once its
 * transaction completes, so a queued attempt is never only in memory). Tests use the in-memory one.
 */
export interface KeyValueStore {
  get<T>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every value whose key starts with `prefix`, in key order. */
  list<T>(prefix: string): Promise<T[]>;
}

const STORE = 'entries';

function promised<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function open(name: string): Promise<IDBDatabase> {
  const request = indexedDB.open(name, 1);
  request.onupgradeneeded = () => request.result.createObjectStore(STORE);
  return promised(request);
}

/** Resolves when the transaction is committed (not merely when its request succeeded). */
function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

export function indexedDbStore(name = 'cc-offline'): KeyValueStore {
  let db: Promise<IDBDatabase> | null = null;
  const database = () => {
    db ??= open(name);
    return db;
  };
  return {
    async get<T>(key: string) {
      const tx = (await database()).transaction(STORE, 'readonly');
      return (await promised(tx.objectStore(STORE).get(key))) as T | undefined;
    },
    async put(key, value) {
      const tx = (await database()).transaction(STORE, 'readwrite', { durability: 'strict' });
      tx.objectStore(STORE).put(value, key);
      await committed(tx);
    },
    async delete(key) {
      const tx = (await database()).transaction(STORE, 'readwrite', { durability: 'strict' });
      tx.objectStore(STORE).delete(key);
      await committed(tx);
    },
    async list<T>(prefix: string) {
      const tx = (await database()).transaction(STORE, 'readonly');
      // Keys are strings: every key starting with prefix sorts between prefix and prefix + U+FFFF.
      const range = IDBKeyRange.bound(prefix, `${prefix}\uffff`);
      return (await promised(tx.objectStore(STORE).getAll(range))) as T[];
    },
  };
}

/** For tests: the same contract, values copied in and out as IndexedDB's structured clone does. */
export function memoryStore(): KeyValueStore & { entries: Map<string, unknown> } {
  const entries = new Map<string, unknown>();
  const clone = <T>(v: T): T => (v === undefined ? v : structuredClone(v));
  return {
    entries,
    async get<T>(key: string) {
      return clone(entries.get(key)) as T | undefined;
    },
    async put(key, value) {
      entries.set(key, clone(value));
    },
    async delete(key) {
      entries.delete(key);
    },
    async list<T>(prefix: string) {
      return [...entries.keys()]
        .filter((k) => k.startsWith(prefix))
        .sort()
        .map((k) => clone(entries.get(k)) as T);
    },
  };
}
