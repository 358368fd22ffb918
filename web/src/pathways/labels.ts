import type {
  PATHWAY_CHANGE_KINDS,
  PathwayAllocationStatus,
  PathwayStepStatus,
  PathwayStepType,
  PathwayVersionChoice,
} from '@cc/contracts';
import type { BadgeTone } from '../ui';

/** The words people read for the pathway model's values (never the raw enum). */
export const STEP_TYPE: Record<PathwayStepType, string> = {
  course: 'Course',
  document: 'Document to read',
  sign_off: 'Sign-off',
};

export const ALLOCATION_STATUS: Record<PathwayAllocationStatus, { label: string; tone: BadgeTone }> = {
  in_progress: { label: 'In progress', tone: 'primary' },
  awaiting_sign_off: { label: 'Awaiting sign-off', tone: 'warning' },
  completed: { label: 'Completed', tone: 'success' },
  withdrawn: { label: 'Withdrawn', tone: 'neutral' },
};

export const STEP_STATUS: Record<PathwayStepStatus, { label: string; tone: BadgeTone }> = {
  locked: { label: 'Locked', tone: 'neutral' },
  to_do: { label: 'To do', tone: 'primary' },
  overdue: { label: 'Overdue', tone: 'danger' },
  done: { label: 'Done', tone: 'success' },
};

export const CHANGE_KIND: Record<(typeof PATHWAY_CHANGE_KINDS)[number], string> = {
  added: 'Added',
  changed: 'Changed',
  removed: 'Removed',
};

/** The three answers to "what happens to people in progress", as the editor asks them. */
export const VERSION_CHOICE: Record<PathwayVersionChoice, { label: string; hint: string }> = {
  keep_credit: {
    label: 'Keep their progress',
    hint: 'What they already did counts for this step.',
  },
  redo: {
    label: 'Must do it again',
    hint: 'Only what they do from now on counts for this step.',
  },
  stay: {
    label: 'Stay on the old version until they finish',
    hint: 'People in progress keep their current steps; new people get this version.',
  },
};

export const dueText = (days: number | null, from: 'allocation' | 'start_date') =>
  days === null
    ? null
    : `Due ${days} day${days === 1 ? '' : 's'} after ${from === 'allocation' ? 'allocation' : 'the start date'}`;
