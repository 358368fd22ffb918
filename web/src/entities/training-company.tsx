import {
  type EntityDto,
  formatDate,
  type Paged,
  TrainingCompanyMessages,
  type TrainingCompanyRequest,
} from '@cc/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, type Envelope } from '../app/api';
import { notifyError, notifySuccess } from '../app/notifications';
import { Badge, Button, Card, CardPagination, ConfirmDialog, EmptyState } from '../ui';
import { errorEnvelope } from './shared';

/**
 * Training company approval (issue 29 §7). An organisation that marks itself a training company waits for a super
 * admin before its sessions reach other organisations' marketplace. The organisation sees where its request stands
 * (TrainingCompanyStatusNotice, on its training provider settings); a super admin answers the requests on the
 * organisations page (TrainingCompanyRequestsCard).
 */

const requestsKey = (page: number) => ['training-company-requests', page] as const;

/** "Training company", or "Training company (awaiting approval)" / "(not approved)": status in words as well. */
export function TrainingCompanyBadge({ status }: { status: EntityDto['training_company_status'] }) {
  if (status === 'pending') return <Badge tone="warning">Training company: awaiting approval</Badge>;
  if (status === 'refused') return <Badge tone="danger">Training company: not approved</Badge>;
  return <Badge tone="primary">Training company</Badge>;
}

/** Where the organisation's request stands, in words, with "Ask again" after a refusal. */
export function TrainingCompanyStatusNotice({ entity }: { entity: EntityDto }) {
  const queryClient = useQueryClient();
  const ask = useMutation({
    mutationFn: async () =>
      (await api.post<Envelope<EntityDto>>(`/entities/${entity.slug}/training-company/request`)).data,
    onSuccess: (res) => {
      notifySuccess(res.message ?? TrainingCompanyMessages.requested);
      void queryClient.invalidateQueries({ queryKey: ['entities'] });
    },
    onError: (error) =>
      notifyError(errorEnvelope(error, 'The request could not be sent.'), 'The request could not be sent.'),
  });
  const status = entity.training_company_status;
  if (status === 'approved')
    return (
      <p
        role="status"
        data-testid="training-company-status"
        className="mb-4 rounded-lg border border-success-500/40 bg-success-100 px-4 py-3 text-sm text-success-800"
      >
        <span className="font-semibold">Approved training company.</span> Sessions you offer to other
        organisations appear on their marketplace.
      </p>
    );
  if (status === 'refused')
    return (
      <div
        role="status"
        data-testid="training-company-status"
        className="mb-4 space-y-2 rounded-lg border border-danger-500/40 bg-danger-100 px-4 py-3 text-sm text-danger-800"
      >
        <p className="font-semibold">Not approved as a training company</p>
        <p>
          A super admin did not approve {entity.name} as a training company, so its sessions are not shown to
          other organisations. Your own staff can still book them. Contact support to find out why, then ask
          again.
        </p>
        <Button size="sm" variant="secondary" loading={ask.isPending} onClick={() => ask.mutate()}>
          Ask again
        </Button>
      </div>
    );
  return (
    <div
      role="status"
      data-testid="training-company-status"
      className="mb-4 rounded-lg border border-warning-500/40 bg-warning-100 px-4 py-3 text-sm text-warning-800"
    >
      <p className="font-semibold">Awaiting approval</p>
      <p>
        A super admin checks every new training company before its sessions are shown to other organisations.
        Until then, sessions you offer to other organisations stay off their marketplace; your own staff can
        book them, and you can set these settings now.
      </p>
    </div>
  );
}

/** "Ask to be listed as a training company" for an organisation that is not one yet. */
export function RequestTrainingCompanyButton({ entity }: { entity: EntityDto }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Ask to become a training company</Button>
      <ConfirmDialog
        open={open}
        tone="primary"
        title="Become a training company?"
        message={`${entity.name} will be marked as a training company. A super admin reviews the request; once it is approved, sessions it offers to other organisations appear on their marketplace.`}
        confirmLabel="Send request"
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          try {
            const res = (
              await api.post<Envelope<EntityDto>>(`/entities/${entity.slug}/training-company/request`)
            ).data;
            notifySuccess(res.message ?? TrainingCompanyMessages.requested);
            await queryClient.invalidateQueries({ queryKey: ['entities'] });
          } catch (error) {
            notifyError(
              errorEnvelope(error, 'The request could not be sent.'),
              'The request could not be sent.',
            );
            throw error;
          }
        }}
      />
    </>
  );
}

/** Super admins only: the training company requests waiting for an answer, with Approve and Refuse. */
export function TrainingCompanyRequestsCard() {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [deciding, setDeciding] = useState<{ request: TrainingCompanyRequest; approve: boolean } | null>(
    null,
  );
  const list = useQuery({
    queryKey: requestsKey(page),
    queryFn: async () =>
      (
        await api.get<Paged<TrainingCompanyRequest>>('/training-company-requests', {
          params: { page, per_page: 5 },
        })
      ).data,
  });
  // Nothing waiting (and not loading a later page): the card stays out of the way.
  if (!list.isLoading && !list.isError && (list.data?.meta.total ?? 0) === 0 && page === 1) return null;
  const decide = async (request: TrainingCompanyRequest, approve: boolean) => {
    try {
      const res = (
        await api.post<Envelope<TrainingCompanyRequest>>(
          `/entities/${request.slug}/training-company/${approve ? 'approve' : 'refuse'}`,
        )
      ).data;
      notifySuccess(
        res.message ?? (approve ? TrainingCompanyMessages.approved : TrainingCompanyMessages.refused),
      );
      await queryClient.invalidateQueries({ queryKey: ['training-company-requests'] });
      await queryClient.invalidateQueries({ queryKey: ['entities'] });
    } catch (error) {
      notifyError(errorEnvelope(error, 'The answer could not be saved.'), 'The answer could not be saved.');
      throw error;
    }
  };
  return (
    <Card title="Training companies awaiting approval" padded={false} className="mb-4">
      <p className="border-b border-slate-200 px-4 py-3 text-sm text-slate-600">
        These organisations asked to run training for others. Their sessions reach other organisations'
        marketplace only once you approve them.
      </p>
      {list.isError ? (
        <EmptyState
          title="The requests could not be loaded"
          description={errorEnvelope(list.error, 'Please try again.').message}
        />
      ) : (
        <ul
          className="divide-y divide-slate-100"
          aria-label="Training company requests"
          aria-busy={list.isLoading || undefined}
        >
          {list.data?.data.map((r) => (
            <li key={r.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <Link
                  to={`/entities/${r.slug}`}
                  className="focus-ring rounded font-medium text-primary-800 hover:underline"
                >
                  {r.name}
                </Link>
                <p className="text-xs text-slate-600">
                  {r.parent ? `In ${r.parent.name} · ` : ''}
                  {r.requested_at ? `Asked ${formatDate(r.requested_at)}` : 'Waiting'}
                  {r.website ? ` · ${r.website}` : ''}
                </p>
              </div>
              <div className="flex shrink-0 gap-2">
                <Button
                  size="sm"
                  onClick={() => setDeciding({ request: r, approve: true })}
                  aria-label={`Approve ${r.name}`}
                >
                  Approve
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => setDeciding({ request: r, approve: false })}
                  aria-label={`Refuse ${r.name}`}
                >
                  Refuse
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <CardPagination meta={list.data?.meta} onPageChange={setPage} label="Training company request pages" />
      <ConfirmDialog
        open={deciding !== null}
        tone={deciding?.approve ? 'primary' : 'danger'}
        title={
          deciding?.approve ? `Approve ${deciding.request.name}?` : `Refuse ${deciding?.request.name ?? ''}?`
        }
        message={
          deciding?.approve
            ? 'Its sessions offered to other organisations will appear on their marketplace, and organisations that book with it can name its trainers.'
            : 'Its sessions stay off other organisations’ marketplace. It can ask again later.'
        }
        confirmLabel={deciding?.approve ? 'Approve' : 'Refuse'}
        onClose={() => setDeciding(null)}
        onConfirm={() => (deciding ? decide(deciding.request, deciding.approve) : undefined)}
      />
    </Card>
  );
}
