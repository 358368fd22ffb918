import { MenuItem } from '@headlessui/react';
import { useEffect } from 'react';
import { useAuth } from '../../app/auth';
import { isMobile } from '../../app/env';
import { joinPromptStore, switchUser } from './session';
import { loadTablet, setTabletEnabled, useTablet } from './store';

const ITEM = 'block w-full rounded-lg px-3 py-2 text-left text-sm text-slate-700 data-focus:bg-slate-100';

/**
 * The account menu's shared-tablet entries (mobile only): turning the mode on (and joining), then "Join this
 * tablet" for someone not on it yet, or "Switch user" (back to the list, nobody logged out). Turning it off removes
 * everyone saved, so it is done from the login page's "Shared tablet" switch, which asks first.
 */
export function TabletMenuItems() {
  const { user } = useAuth();
  const { enabled, members } = useTablet();
  useEffect(() => {
    if (isMobile()) void loadTablet();
  }, []);
  if (!isMobile() || !user) return null;
  const joined = members.some((m) => m.id === user.id);
  return (
    <>
      {enabled ? null : (
        <MenuItem>
          <button
            type="button"
            onClick={() => void setTabletEnabled(true).then(() => joinPromptStore.set(true))}
            className={ITEM}
          >
            Use as a shared tablet
          </button>
        </MenuItem>
      )}
      {enabled && !joined ? (
        <MenuItem>
          <button type="button" onClick={() => joinPromptStore.set(true)} className={ITEM}>
            Join this tablet
          </button>
        </MenuItem>
      ) : null}
      {enabled && joined ? (
        <MenuItem>
          <button type="button" onClick={() => void switchUser()} className={ITEM}>
            Switch user
          </button>
        </MenuItem>
      ) : null}
    </>
  );
}
