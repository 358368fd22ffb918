import { useSearchParams } from 'react-router';
import { ButtonLink, PageHeader, Tabs } from '../ui';
import { useBookingsAccess } from './access';
import { MarketplacePanel } from './Marketplace';
import { OrdersPanel } from './Orders';
import { SessionsCalendar } from './SessionsCalendar';
import { SessionFiltersBar, SessionsList, useSessionFilters } from './SessionsList';

type Tab = 'list' | 'calendar' | 'marketplace';

/**
 * `/manage-bookings` (issue 15): the sessions of my scope as a list or a calendar, the marketplace and my training
 * orders. The tab, filters and page live in the address, so a view can be shared and the back button works.
 */
export default function ManageBookingsPage() {
  const access = useBookingsAccess();
  const [params, setParams] = useSearchParams();
  const filters = useSessionFilters(access.trainerOnly);
  const tabs: { key: Tab; label: string }[] = [
    { key: 'list', label: 'List' },
    { key: 'calendar', label: 'Calendar' },
    // The marketplace and the organisation's training orders share one tab (three tabs fit at 375 px).
    ...(access.marketplace || access.orders
      ? [{ key: 'marketplace' as const, label: access.marketplace ? 'Marketplace' : 'Training orders' }]
      : []),
  ];
  const asked = params.get('view') === 'orders' ? 'marketplace' : (params.get('view') ?? 'list');
  const current = Math.max(
    0,
    tabs.findIndex((t) => t.key === asked),
  );
  const select = (index: number) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.set('view', tabs[index]?.key ?? 'list');
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  const newSession = access.create ? <ButtonLink to="/manage-bookings/new">New session</ButtonLink> : null;
  return (
    <div>
      <PageHeader
        title={access.trainerOnly ? 'My sessions' : 'Manage bookings'}
        description={
          access.trainerOnly
            ? 'The face-to-face sessions you train: their delegates, check-in code and attendance.'
            : 'Face-to-face training sessions: schedule them, manage their delegates and mark attendance.'
        }
        actions={newSession}
      />
      <Tabs
        label="Bookings views"
        selectedIndex={current}
        onChange={select}
        tabs={tabs.map((t) => ({
          key: t.key,
          label: t.label,
          content:
            t.key === 'list' ? (
              <div className="space-y-4">
                <SessionFiltersBar filters={filters} trainerOnly={access.trainerOnly} />
                <SessionsList filters={filters} canCreate={access.create} trainerOnly={access.trainerOnly} />
              </div>
            ) : t.key === 'calendar' ? (
              <div className="space-y-4">
                <SessionFiltersBar filters={filters} trainerOnly={access.trainerOnly} dates={false} />
                <SessionsCalendar filters={filters} canCreate={access.create} />
              </div>
            ) : (
              <div className="space-y-6">
                {access.marketplace ? <MarketplacePanel /> : null}
                {access.orders ? <OrdersPanel /> : null}
              </div>
            ),
        }))}
      />
    </div>
  );
}
