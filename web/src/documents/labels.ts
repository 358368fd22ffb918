import type { DocumentStatus } from '@cc/contracts';
import type { BadgeTone } from '../ui';

/** A person's own state for a document, in words (the list badge and the page's panel). */
export const DOCUMENT_STATUS: Record<DocumentStatus, { label: string; tone: BadgeTone }> = {
  not_required: { label: 'Not required', tone: 'neutral' },
  to_read: { label: 'To read', tone: 'warning' },
  acknowledged: { label: 'Acknowledged', tone: 'success' },
  new_version: { label: 'New version to read', tone: 'warning' },
};
