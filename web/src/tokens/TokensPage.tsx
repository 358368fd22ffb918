import {
  type CreatedTokenView,
  formatDate,
  formatDateTime,
  TokenMessages,
  TokenPerm,
  type TokenStatus,
  type TokenView,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useAddressFilters } from '../app/address-filters';
import { usePermission } from '../app/auth';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope } from '../entities/shared';
import {
  Badge,
  type BadgeTone,
  Button,
  Card,
  CardPagination,
  type Column,
  ConfirmDialog,
  DataTable,
  EmptyState,
  PageHeader,
  SearchInput,
} from '../ui';
import { revokeToken, tokenKeys, useTokens } from './api';
import { CreateTokenDialog } from './CreateTokenDialog';
import { OneTimeToken } from './OneTimeToken';

const STATUS: Record<TokenStatus, { label: string; tone: BadgeTone }> = {
  active: { label: 'Active', tone: 'success' },
  expires_soon: { label: 'Expires soon', tone: 'warning' },
  expired: { label: 'Expired', tone: 'neutral' },
  revoked: { label: 'Revoked', tone: 'danger' },
};

const abilitiesText = (t: TokenView) =>
  t.abilities.length <= 3
    ? t.abilities.map((a) => a.name).join(', ')
    : `${t.abilities
        .slice(0, 2)
        .map((a) => a.name)
        .join(', ')} and ${t.abilities.length - 2} more`;

/**
 * `/personal-access-tokens` (issue 18): the person's own tokens (101/102/103), and with 103 the tokens of everyone in
 * their organisation (an admin checking a leak). Create (101) shows the token once; revoke (102) after a confirmation.
 */
export default function TokensPage() {
  const queryClient = useQueryClient();
  const canAdd = usePermission([TokenPerm.add]);
  const canView = usePermission([TokenPerm.view]);
  const filters = useAddressFilters(['search', 'scope']);
  const page = Number(filters.params.get('page')) || 1;
  const search = filters.params.get('search') || undefined;
  const scope = canView && filters.params.get('scope') === 'organisation' ? 'organisation' : 'own';
  const list = useTokens({ page, search, scope });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedTokenView | null>(null);
  const [revoking, setRevoking] = useState<TokenView | null>(null);

  const columns: Column<TokenView>[] = [
    {
      key: 'name',
      header: 'Token',
      render: (t) => (
        <span className="flex flex-col gap-0.5">
          <span className="font-medium text-slate-900 wrap-anywhere">{t.name}</span>
          <code className="text-xs text-slate-600">{t.token_prefix}…</code>
          {scope === 'organisation' ? <span className="text-xs text-slate-700">{t.owner.name}</span> : null}
          <span className="text-xs text-slate-600 wrap-anywhere md:hidden">{abilitiesText(t)}</span>
          <span className="text-xs text-slate-600 md:hidden">Expires {formatDate(t.expires_at)}</span>
          <span className="md:hidden">
            <Badge tone={STATUS[t.status].tone}>{STATUS[t.status].label}</Badge>
          </span>
        </span>
      ),
    },
    {
      key: 'abilities',
      header: 'Permissions',
      hideOnMobile: true,
      render: (t) => (
        <span className="wrap-anywhere" title={t.abilities.map((a) => a.name).join(', ')}>
          {abilitiesText(t)}
        </span>
      ),
    },
    { key: 'created', header: 'Created', hideOnMobile: true, render: (t) => formatDate(t.created_at) },
    { key: 'expires', header: 'Expires', hideOnMobile: true, render: (t) => formatDate(t.expires_at) },
    {
      key: 'used',
      header: 'Last used',
      hideOnMobile: true,
      render: (t) =>
        t.last_used_at ? (
          <span className="flex flex-col">
            <span>{formatDateTime(t.last_used_at)}</span>
            {t.last_used_ip ? <span className="text-xs text-slate-600">from {t.last_used_ip}</span> : null}
          </span>
        ) : (
          'Never'
        ),
    },
    {
      key: 'status',
      header: 'Status',
      hideOnMobile: true,
      render: (t) => <Badge tone={STATUS[t.status].tone}>{STATUS[t.status].label}</Badge>,
    },
  ];

  const revoke = async (t: TokenView) => {
    try {
      const res = await revokeToken(t.id);
      notifySuccess(res.data?.message ?? TokenMessages.revoked);
      await queryClient.invalidateQueries({ queryKey: tokenKeys.all });
    } catch (error) {
      notifyError(errorEnvelope(error, 'The token could not be revoked.'), 'The token could not be revoked.');
    }
  };

  const example = `curl -H "Authorization: Bearer ccpat_…" ${window.location.origin}/api/users`;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Personal access tokens"
        description="Tokens let other systems use the API on your behalf, with only the permissions you give them."
        actions={canAdd ? <Button onClick={() => setCreating(true)}>Create token</Button> : undefined}
      />
      {created ? <OneTimeToken token={created} onDone={() => setCreated(null)} /> : null}
      {canView ? (
        <fieldset className="flex flex-wrap gap-2">
          <legend className="sr-only">Whose tokens</legend>
          {(
            [
              ['own', 'My tokens'],
              ['organisation', 'Everyone in my organisation'],
            ] as const
          ).map(([key, label]) => (
            <Button
              key={key}
              size="sm"
              variant={scope === key ? 'primary' : 'secondary'}
              aria-pressed={scope === key}
              onClick={() => filters.set({ scope: key === 'organisation' ? 'organisation' : '' })}
            >
              {label}
            </Button>
          ))}
        </fieldset>
      ) : null}
      <Card padded={false} data-testid="tokens-list">
        <div className="border-b border-slate-200 p-4">
          <SearchInput
            label="Search tokens"
            placeholder={scope === 'organisation' ? 'Token or person' : 'Token name'}
            value={search ?? ''}
            onSearch={(value) => filters.set({ search: value })}
          />
        </div>
        {list.isError ? (
          <p role="alert" className="p-4 text-sm text-danger-800">
            {errorEnvelope(list.error, 'The tokens could not be loaded.').message}
          </p>
        ) : (
          <DataTable
            caption="Personal access tokens"
            columns={columns}
            rows={list.data?.data}
            rowKey={(t) => t.id}
            loading={list.isLoading}
            rowActions={(t) =>
              t.can_revoke ? (
                <Button
                  size="sm"
                  variant="danger"
                  aria-label={`Revoke ${t.name}`}
                  onClick={() => setRevoking(t)}
                >
                  Revoke
                </Button>
              ) : null
            }
            empty={
              search ? (
                <EmptyState
                  title="No token matches your search"
                  description="Try another name, or clear the search."
                  action={
                    <Button size="sm" variant="secondary" onClick={filters.clear}>
                      Clear search
                    </Button>
                  }
                />
              ) : (
                <EmptyState
                  title={scope === 'organisation' ? 'Nobody has a token yet' : 'You have no tokens yet'}
                  description={
                    <span className="space-y-2">
                      <span className="block">
                        A personal access token lets a rota, payroll or HR system read or update training
                        records through the API as you, limited to the permissions you choose, until the date
                        you choose.
                      </span>
                      <code className="block rounded bg-slate-100 p-2 text-left text-xs wrap-anywhere">
                        {example}
                      </code>
                    </span>
                  }
                  action={
                    canAdd && scope === 'own' ? (
                      <Button size="sm" onClick={() => setCreating(true)}>
                        Create token
                      </Button>
                    ) : undefined
                  }
                />
              )
            }
          />
        )}
        <CardPagination
          meta={list.data?.meta}
          onPageChange={(p) => filters.set({ page: String(p) })}
          label="Token pages"
        />
      </Card>
      <CreateTokenDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(t) => {
          setCreating(false);
          setCreated(t);
        }}
      />
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this token?"
        message={`${revoking?.name ?? ''} will stop working at once. Anything using it will be refused.`}
        confirmLabel="Revoke token"
        onConfirm={async () => {
          if (revoking) await revoke(revoking);
        }}
        onClose={() => setRevoking(null)}
      />
    </div>
  );
}
