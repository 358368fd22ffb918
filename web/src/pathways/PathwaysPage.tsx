import { formatDate, PathwayPerm, type PathwaySummary } from '@cc/contracts';
import { Link } from 'react-router';
import { useAddressFilters } from '../app/address-filters';
import { usePermissionChecker } from '../app/auth';
import { errorEnvelope } from '../entities/shared';
import {
  Badge,
  ButtonLink,
  Card,
  CardPagination,
  type Column,
  DataTable,
  EmptyState,
  PageHeader,
  SearchInput,
} from '../ui';
import { usePathways } from './api';
import { MyPathwaysCard } from './MyPathways';

/**
 * `/pathways`: everyone's own pathways first ("My pathways"); for people who manage (PathwayPerm.view) the
 * pathways of their organisations with how many people are in progress, awaiting sign-off and done. A learner
 * without those rights sees only theirs.
 */
export default function PathwaysPage() {
  const can = usePermissionChecker();
  const manages = can([...PathwayPerm.view], 'any');
  const canAdd = can([...PathwayPerm.manage], 'any');
  return (
    <div className="space-y-6">
      <PageHeader
        title="Pathways"
        description={
          manages
            ? 'Plans of courses, documents to read and sign-offs, given to people or to job roles.'
            : 'Your plans of courses, documents to read and sign-offs, step by step.'
        }
        actions={canAdd ? <ButtonLink to="/pathways/create">Add a pathway</ButtonLink> : undefined}
      />
      <MyPathwaysCard hideWhenEmpty={manages} />
      {manages ? <PathwaysList canAdd={canAdd} /> : null}
    </div>
  );
}

function PathwaysList({ canAdd }: { canAdd: boolean }) {
  const { params, set, active, clear } = useAddressFilters(['search']);
  const query = { page: Number(params.get('page')) || 1, search: params.get('search') || undefined };
  const list = usePathways(query);
  const columns: Column<PathwaySummary>[] = [
    {
      key: 'title',
      header: 'Pathway',
      render: (p) => (
        <span className="flex flex-col gap-1">
          <Link
            to={`/pathways/${p.id}`}
            className="focus-ring rounded font-medium text-primary-800 hover:underline"
          >
            {p.title}
          </Link>
          <span className="text-xs text-slate-600">
            {p.entity.name} · {p.step_count} step{p.step_count === 1 ? '' : 's'} · version {p.version}
          </span>
        </span>
      ),
    },
    {
      key: 'people',
      header: 'People',
      render: (p) => (
        <span className="flex flex-wrap gap-1">
          <Badge tone="primary">{p.counts.in_progress} in progress</Badge>
          {p.counts.awaiting_sign_off ? (
            <Badge tone="warning">{p.counts.awaiting_sign_off} awaiting sign-off</Badge>
          ) : null}
          <Badge tone="success">{p.counts.completed} completed</Badge>
        </span>
      ),
    },
    {
      key: 'order',
      header: 'Order',
      hideOnMobile: true,
      render: (p) => (
        <span className="text-sm text-slate-700">
          {p.sequential ? 'In order' : 'Any order'}
          {p.requires_final_sign_off ? ', final sign-off' : ''}
        </span>
      ),
    },
    {
      key: 'updated',
      header: 'Updated',
      hideOnMobile: true,
      render: (p) => <span className="text-sm text-slate-700">{formatDate(p.updated_at)}</span>,
    },
  ];
  return (
    <Card title="Pathways of your organisations" padded={false} data-testid="pathways-list">
      <div className="border-b border-slate-200 p-4 sm:px-5">
        <div className="max-w-sm">
          <SearchInput
            label="Search pathways"
            placeholder="Title"
            value={query.search ?? ''}
            onSearch={(search) => set({ search })}
          />
        </div>
      </div>
      {list.isError ? (
        <p role="alert" className="p-4 text-sm text-danger-800">
          {errorEnvelope(list.error, 'The pathways could not be loaded.').message}
        </p>
      ) : (
        <DataTable
          caption="Pathways"
          columns={columns}
          rows={list.data?.data}
          rowKey={(p) => p.id}
          loading={list.isLoading}
          empty={
            <EmptyState
              title={active ? 'No pathway matches this search' : 'No pathways yet'}
              description={
                active
                  ? 'Clear the search to see every pathway.'
                  : 'A pathway puts courses, documents to read and sign-offs in order for new starters and job roles.'
              }
              action={
                active ? (
                  <button
                    type="button"
                    onClick={clear}
                    className="focus-ring rounded text-sm font-medium text-primary-800 underline"
                  >
                    Clear the search
                  </button>
                ) : canAdd ? (
                  <ButtonLink to="/pathways/create" size="sm">
                    Add a pathway
                  </ButtonLink>
                ) : undefined
              }
            />
          }
        />
      )}
      <CardPagination
        meta={list.data?.meta}
        onPageChange={(page) => set({ page: String(page) })}
        label="Pathway pages"
      />
    </Card>
  );
}
