import { Messages, StarterMatrixMessages, type StarterMatrixPreview, type StarterRule } from '@cc/contracts';
import { useState } from 'react';
import { useParams } from 'react-router';
import { notifyError, notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { errorEnvelope, LoadError, LoadingCard, useNotFoundRedirect } from '../entities/shared';
import { Badge, Button, Card, ConfirmDialog, PageHeader } from '../ui';
import { organisationsWord, organisationWord } from '../whitelabel/words';
import { refreshLabel, useApplyStarterMatrix, useStarterMatrix } from './api';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "6 courses, 0 job roles and 88 course rules". */
export function countsText(n: StarterMatrixPreview['to_create']): string {
  return `${plural(n.courses, 'course')}, ${plural(n.roles, 'job role')} and ${plural(n.rules, 'course rule')}`;
}

/**
 * `/entities/{slug}/starter-matrix` (issue 37 §2; ours: the spec names no route for it): the care sector's common
 * core and mandatory training for the usual job roles of a care home, previewed against what the organisation has,
 * then applied. What it already has (a course or job role of the same or a usual other name, a course rule of its
 * own) is kept and shown as kept; applying adds only the rest.
 */
export default function StarterMatrixPage() {
  const { slug = '' } = useParams();
  const wl = useWhitelabel();
  const query = useStarterMatrix(slug);
  useNotFoundRedirect(query.error, 'entity');
  const apply = useApplyStarterMatrix(slug);
  const [confirming, setConfirming] = useState(false);

  if (query.isLoading) return <LoadingCard lines={10} />;
  if (query.isError || !query.data)
    return (
      <LoadError
        error={query.error}
        fallback={StarterMatrixMessages.failedToFetch}
        onRetry={() => void query.refetch()}
      />
    );
  const p = query.data;
  const nothingToAdd = p.to_create.courses + p.to_create.roles + p.to_create.rules === 0;
  const org = organisationWord(wl).toLowerCase();
  const typeWord = (type: StarterRule['type']) =>
    type === 'primary' ? wl.primaryComplianceAltName : wl.secondaryComplianceAltName;

  const onApply = async () => {
    try {
      const res = await apply.mutateAsync();
      notifySuccess(res.message ?? StarterMatrixMessages.applied(res.data.created));
    } catch (error) {
      notifyError(errorEnvelope(error, Messages.somethingWentWrong), Messages.somethingWentWrong);
      throw error;
    }
  };

  const ruleOf = new Map(p.rules.map((r) => [`${r.role_key}:${r.course_key}`, r]));
  const keptRules = p.rules.filter((r) => r.action === 'keep').length;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Starter training matrix"
        description={`The care sector’s common core and mandatory training for your job roles, from Skills for Care’s guidance on core and mandatory training and the Care Certificate standards. Check what will be added, then apply it: nothing your ${org} already has is changed.`}
        breadcrumbs={[
          { label: organisationsWord(wl), to: '/entities' },
          { label: p.entity.name, to: `/entities/${p.entity.slug}` },
          { label: 'Starter training matrix' },
        ]}
        actions={
          <Button onClick={() => setConfirming(true)} disabled={nothingToAdd}>
            Apply
          </Button>
        }
      />

      <Card title="What applying does">
        {nothingToAdd ? (
          <p className="text-sm text-slate-700" data-testid="starter-summary">
            {p.entity.name} already has everything in the starter training matrix. Nothing more to add.
          </p>
        ) : (
          <div className="space-y-2 text-sm text-slate-700" data-testid="starter-summary">
            <p>
              Applying adds <strong>{countsText(p.to_create)}</strong> to {p.entity.name}.
            </p>
            <p>
              Kept as they are: {plural(p.courses.length - p.to_create.courses, 'course')},{' '}
              {plural(p.roles.length - p.to_create.roles, 'job role')} and {plural(keptRules, 'course rule')}{' '}
              you already have. New courses are added unpublished: add their content, or record face-to-face
              and historical training against them.
            </p>
          </div>
        )}
      </Card>

      <Card title="Job roles">
        <ul className="divide-y divide-slate-100">
          {p.roles.map((r) => (
            <li key={r.key} className="flex flex-wrap items-center justify-between gap-2 py-2.5 text-sm">
              <span className="font-medium text-slate-900">{r.name}</span>
              {r.existing ? (
                <span className="flex items-center gap-2 text-slate-600">
                  Uses your job role <strong className="text-slate-900">{r.existing.name}</strong>
                  <Badge>Kept</Badge>
                </span>
              ) : (
                <Badge tone="primary">Will be added</Badge>
              )}
            </li>
          ))}
        </ul>
      </Card>

      <Card title="Courses and who needs them" padded={false}>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the scroll region must be reachable by keyboard */}
        <section className="relative overflow-x-auto" tabIndex={0} aria-label="Courses by job role">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">
              Each course, how often it is refreshed, and whether each job role must do it
            </caption>
            <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-3">
                  Course
                </th>
                <th scope="col" className="px-3 py-3">
                  Refresh
                </th>
                {p.roles.map((r) => (
                  <th key={r.key} scope="col" className="px-2 py-3 whitespace-nowrap">
                    {r.existing?.name ?? r.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 align-top">
              {p.courses.map((c) => (
                <tr key={c.key}>
                  <th scope="row" className="min-w-40 px-4 py-3 text-left font-normal">
                    <span className="block font-medium text-slate-900">{c.existing?.title ?? c.title}</span>
                    <span className="mt-1 flex flex-wrap gap-1.5">
                      {c.existing ? <Badge>Yours, kept</Badge> : <Badge tone="primary">Will be added</Badge>}
                      {c.care_certificate_standard ? (
                        <span className="text-xs text-slate-500">
                          Care Certificate {c.care_certificate_standard}
                        </span>
                      ) : null}
                    </span>
                  </th>
                  <td className="min-w-44 px-3 py-3">
                    <span className="block font-medium text-slate-900">{refreshLabel(c.refresh_months)}</span>
                    <span className="block text-xs text-slate-500">{c.refresh_basis}</span>
                  </td>
                  {p.roles.map((r) => {
                    const rule = ruleOf.get(`${r.key}:${c.key}`);
                    if (!rule)
                      return (
                        <td key={r.key} className="px-2 py-3 text-slate-400">
                          <span aria-hidden="true">–</span>
                          <span className="sr-only">Not needed</span>
                        </td>
                      );
                    return (
                      <td key={r.key} className="px-2 py-3 whitespace-nowrap">
                        {rule.existing ? (
                          <span className="flex flex-col gap-0.5">
                            <span className="text-slate-900">{typeWord(rule.existing.type)}</span>
                            <span className="text-xs text-slate-500">
                              Yours, kept: {refreshLabel(rule.existing.refresh_months).toLowerCase()}
                            </span>
                          </span>
                        ) : (
                          <Badge tone={rule.type === 'primary' ? 'warning' : 'neutral'}>
                            {typeWord(rule.type)}
                          </Badge>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <p className="border-t border-slate-100 px-5 py-3 text-xs text-slate-500">
          “Not set”: the guidance gives no refresh period for the topic, so a pass does not expire until your{' '}
          {org} sets one on the course rule. Every period’s source is listed in the product’s documentation
          (Starter training matrix).
        </p>
      </Card>

      <ConfirmDialog
        open={confirming}
        title="Apply the starter training matrix?"
        message={`This adds ${countsText(p.to_create)} to ${p.entity.name}. Nothing it already has is changed.`}
        confirmLabel="Apply"
        tone="primary"
        onConfirm={onApply}
        onClose={() => setConfirming(false)}
      />
    </div>
  );
}
