import { type Paged, Perm, TASK_STARTER_PERMISSIONS } from '@cc/contracts';
import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { useActingAs } from '../app/acting-as';
import { api } from '../app/api';
import { logout, useAuth, usePermission, usePermissionChecker } from '../app/auth';
import { showModal } from '../app/modal';
import { isNarrow, sideNavStore, useCloseSideNavOnNavigate } from '../app/sidenav';
import { useStore } from '../app/store';
import { useWhitelabel } from '../app/whitelabel';
import { HelpWidget } from '../help/HelpWidget';
import { useOutboxDrain } from '../learning/attempt-outbox';
import { useUnreadCount } from '../messaging/api';
import { TabletMenuItems } from '../native/tablet/TabletMenu';
import { NotificationBell } from '../notifications/NotificationBell';
import { TasksBadge } from '../tasks/TasksBadge';
import { cx } from '../ui';
import { organisationWord } from '../whitelabel/words';
import { isBuiltPath } from './built-paths';
import { EntityModal } from './EntityModal';
import { navSections, visibleNav } from './nav';

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p[0]?.toUpperCase())
    .join('');
}

/**
 * The organisation's logo, or the product's mark and name. A logo that does not load (the app opened offline: the
 * logo is the server's, issue 31 §3) shows the mark and name instead of a broken image.
 */
function Logo({ compact }: { compact: boolean }) {
  const wl = useWhitelabel();
  const label = wl.companyName || wl.entity?.name || 'CareCompliance';
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <Link to="/" className="focus-ring flex items-center gap-2 rounded-md" aria-label={`${label} home`}>
      {wl.logo && failed !== wl.logo ? (
        <img
          src={wl.logo}
          alt=""
          onError={() => setFailed(wl.logo)}
          className={cx('h-8 w-auto object-contain', compact ? 'max-w-20 sm:max-w-40' : 'max-w-40')}
        />
      ) : (
        <>
          <img src="/favicon.svg" alt="" className="h-8 w-8" />
          <span className={cx('text-base font-semibold text-slate-900', compact && 'max-sm:sr-only')}>
            {label}
          </span>
        </>
      )}
    </Link>
  );
}

function Header() {
  const { user } = useAuth();
  const actingAs = useActingAs();
  const wl = useWhitelabel();
  const canActAs = usePermission([Perm.actingAs]);
  // Issue 31 §6: the clock is for who can start a long job (tasks); a learner never has one.
  const hasTasks = usePermission([...TASK_STARTER_PERMISSIONS], 'any');
  const open = useStore(sideNavStore, (s) => s.open);
  // The organisation in view, at every width: the acting-as entity, else the user's own.
  // Without acting-as (19) a user sees their own place: their primary organisation (a carer's home).
  const home = (canActAs ? actingAs?.name : null) ?? user?.primary_entity.name ?? actingAs?.name ?? null;
  return (
    <header className="sticky top-0 z-40 flex h-16 items-center gap-1.5 border-b border-slate-200 bg-white px-3 sm:gap-3 sm:px-5">
      <button
        type="button"
        className="focus-ring rounded-md p-2 text-slate-700 hover:bg-slate-100 md:hidden"
        aria-label={open ? 'Close navigation' : 'Open navigation'}
        aria-expanded={open}
        aria-controls="side-nav"
        onClick={() => sideNavStore.set({ open: !open })}
      >
        <svg viewBox="0 0 24 24" className="h-6 w-6" aria-hidden="true">
          <path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
      <Logo compact={Boolean(home)} />
      <div className="ml-auto flex min-w-0 items-center gap-1.5 sm:gap-2">
        {home ? (
          canActAs ? (
            <button
              type="button"
              onClick={() => showModal('entity')}
              className="focus-ring flex min-w-0 max-w-64 items-center gap-1.5 rounded-lg px-2 py-1.5 text-sm text-slate-700 ring-1 ring-slate-200 hover:bg-slate-50 sm:px-3"
              title={`Viewing ${home}. Switch ${organisationWord(wl).toLowerCase()}`}
              aria-label={`Viewing ${home}. Switch ${organisationWord(wl).toLowerCase()}`}
            >
              <span className="hidden text-slate-500 sm:inline">Viewing</span>
              <span className="truncate font-medium" data-testid="acting-as">
                {home}
              </span>
              <svg viewBox="0 0 20 20" className="h-4 w-4 shrink-0 text-slate-500" aria-hidden="true">
                <path
                  d="M6 8l4 4 4-4"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                />
              </svg>
            </button>
          ) : (
            <span className="flex min-w-0 max-w-64 items-center gap-1.5 text-sm text-slate-700">
              <span className="hidden text-slate-500 sm:inline">Viewing</span>
              <span className="truncate font-medium" data-testid="acting-as" title={home}>
                {home}
              </span>
            </span>
          )
        ) : null}
        <HelpWidget placement="header" />
        {user && hasTasks ? <TasksBadge /> : null}
        {user ? <NotificationBell /> : null}
        {user ? (
          <Menu as="div" className="relative">
            <MenuButton
              data-testid="user-menu"
              className="focus-ring flex items-center gap-2 rounded-full p-0.5 hover:bg-slate-100 sm:pr-2"
            >
              <span
                className="flex h-8 w-8 items-center justify-center rounded-full bg-primary-700 text-xs font-semibold text-on-primary-700"
                aria-hidden="true"
              >
                {initials(user.name)}
              </span>
              <span className="hidden max-w-40 truncate text-sm font-medium text-slate-800 sm:block">
                {user.name}
              </span>
              <span className="sr-only sm:hidden">Account menu for {user.name}</span>
            </MenuButton>
            <MenuItems
              anchor="bottom end"
              className="z-50 mt-2 w-60 rounded-xl bg-white p-1 shadow-lg ring-1 ring-slate-200 focus:outline-none"
            >
              <div className="px-3 py-2">
                <p className="truncate text-sm font-medium text-slate-900">{user.name}</p>
                <p className="truncate text-xs text-slate-600">{user.email}</p>
              </div>
              <div className="my-1 h-px bg-slate-100" />
              <MenuItem>
                <Link
                  to="/account"
                  className="block rounded-lg px-3 py-2 text-sm font-medium text-slate-800 data-focus:bg-slate-100"
                >
                  My account
                </Link>
              </MenuItem>
              <MenuItem>
                <Link
                  to="/update-password"
                  className="block rounded-lg px-3 py-2 text-sm text-slate-700 data-focus:bg-slate-100"
                >
                  Change password
                </Link>
              </MenuItem>
              <MenuItem>
                <Link
                  to="/account/sessions"
                  className="block rounded-lg px-3 py-2 text-sm text-slate-700 data-focus:bg-slate-100"
                >
                  Sessions and devices
                </Link>
              </MenuItem>
              <MenuItem>
                <Link
                  to="/account#personal-data"
                  className="block rounded-lg px-3 py-2 text-sm text-slate-700 data-focus:bg-slate-100"
                >
                  Your personal data
                </Link>
              </MenuItem>
              {canActAs ? (
                <MenuItem>
                  <button
                    type="button"
                    onClick={() => showModal('entity')}
                    className="block w-full rounded-lg px-3 py-2 text-left text-sm text-slate-700 data-focus:bg-slate-100"
                  >
                    Switch {organisationWord(wl).toLowerCase()}
                  </button>
                </MenuItem>
              ) : null}
              <TabletMenuItems />
              <MenuItem>
                <button
                  type="button"
                  onClick={() => void logout()}
                  className="block w-full rounded-lg px-3 py-2 text-left text-sm text-slate-700 data-focus:bg-slate-100"
                >
                  Log out
                </button>
              </MenuItem>
            </MenuItems>
          </Menu>
        ) : null}
      </div>
    </header>
  );
}

/** GET /results/pending/historical?per_page=1: the total awaiting approval, for the menu's badge. */
function usePendingApprovals(enabled: boolean): number | null {
  const actingAs = useActingAs();
  const query = useQuery({
    queryKey: ['results', 'pending', 'count', actingAs?.id ?? null],
    enabled,
    staleTime: 60_000,
    queryFn: async () =>
      (await api.get<Paged<unknown>>('/results/pending/historical', { params: { per_page: 1 } })).data.meta
        .total,
  });
  return enabled ? (query.data ?? null) : null;
}

function SideNav() {
  const wl = useWhitelabel();
  const can = usePermissionChecker();
  const actingAs = useActingAs();
  const { user } = useAuth();
  const open = useStore(sideNavStore, (s) => s.open);
  const slug = actingAs?.slug ?? user?.primary_entity.slug ?? '';
  const sections = useMemo(() => {
    const flags = { ...(user?.a_entity ?? {}), ...(actingAs ?? {}) } as Record<string, unknown>;
    return visibleNav(navSections(wl), {
      can,
      flags,
      slug,
      isBuilt: isBuiltPath,
      superAdmin: Boolean(user?.super_admin),
      trainer: Boolean(user?.is_trainer),
    });
  }, [wl, can, user, actingAs, slug]);
  const hrefs = sections.flatMap((s) => s.items.map((i) => i.href));
  const showsPending = sections.some((s) => s.items.some((i) => i.badge === 'pendingApprovals'));
  const pending = usePendingApprovals(showsPending);
  const showsUnread = sections.some((s) => s.items.some((i) => i.badge === 'unreadMessages'));
  const unread = useUnreadCount(user?.id ?? null, showsUnread);
  useEffect(() => {
    if (!open || !isNarrow()) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') sideNavStore.set({ open: false });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <>
      {open ? (
        <div
          className="fixed inset-0 z-30 bg-slate-900/40 md:hidden"
          aria-hidden="true"
          onClick={() => sideNavStore.set({ open: false })}
        />
      ) : null}
      <nav
        id="side-nav"
        aria-label="Main"
        className={cx(
          'fixed top-16 bottom-0 left-0 z-30 w-64 overflow-y-auto border-r border-slate-200 bg-white px-3 py-4 transition-transform md:sticky md:top-16 md:h-[calc(100vh-4rem)] md:translate-x-0',
          open ? 'translate-x-0' : '-translate-x-full max-md:invisible',
        )}
      >
        {sections.map((section) => (
          <div key={section.title} className="mb-5">
            <p className="px-3 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">
              {section.title}
            </p>
            <ul className="space-y-0.5">
              {section.items.map((item) => {
                const to = item.href;
                const count =
                  item.badge === 'pendingApprovals'
                    ? pending
                    : item.badge === 'unreadMessages'
                      ? unread
                      : null;
                const counted = item.badge === 'unreadMessages' ? 'unread' : 'waiting';
                return (
                  <li key={item.label}>
                    <NavLink
                      to={to}
                      // Exact when another entry lives under this one (Homes vs a home's Branding).
                      end={
                        to === '/' || hrefs.some((h) => h !== to && h.startsWith(`${to.replace(/\/$/, '')}/`))
                      }
                      aria-label={count ? `${item.label} (${count} ${counted})` : undefined}
                      className={({ isActive }) =>
                        cx(
                          'focus-ring flex items-center justify-between gap-2 rounded-lg px-3 py-2 text-sm font-medium',
                          isActive
                            ? 'bg-primary-100 text-primary-900'
                            : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
                        )
                      }
                    >
                      <span>{item.label}</span>
                      {count ? (
                        <span
                          className="rounded-full bg-primary-700 px-2 py-0.5 text-xs font-semibold text-on-primary-700"
                          data-testid={item.badge === 'unreadMessages' ? 'unread-count' : 'pending-count'}
                        >
                          {count > 99 ? '99+' : count}
                        </span>
                      ) : null}
                    </NavLink>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </nav>
    </>
  );
}

/** The shell of the dashboard and default layouts: header, side navigation, main content. */
export function AppShell({ variant }: { variant: 'dashboard' | 'default' }) {
  useCloseSideNavOnNavigate();
  // The attempt player's outbox (issue 31 §2) sends what waits on start and when the signal returns, on any page.
  useOutboxDrain();
  useEffect(() => {
    if (!isNarrow()) sideNavStore.set({ open: true });
  }, []);
  return (
    <div className="min-h-screen bg-slate-100" data-layout={variant}>
      <a
        href="#main"
        className="focus-ring sr-only z-50 rounded bg-white px-3 py-2 text-sm font-medium focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <Header />
      <div className="md:flex">
        <SideNav />
        {/* pb-20: room at the end of a page for the notices (bottom right) to pass clear of its last controls. */}
        <main
          id="main"
          tabIndex={-1}
          className="min-w-0 flex-1 px-4 pt-6 pb-20 focus:outline-none sm:px-6 lg:px-8"
        >
          <div className="mx-auto max-w-6xl">
            <Outlet />
          </div>
        </main>
      </div>
      <EntityModal />
    </div>
  );
}
