/** The offline pages in one chunk: opening the list while online loads the player too, for use offline. */
export { default as OfflinePage } from './OfflinePage';
export { default as OfflinePlayerPage } from './OfflinePlayerPage';
