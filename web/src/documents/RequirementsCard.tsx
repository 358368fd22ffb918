import type { Paged } from '@cc/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../app/api';
import { useWhitelabel } from '../app/whitelabel';
import { useEntityOptions } from '../entities/queries';
import { errorEnvelope } from '../entities/shared';
import { Badge, Button, Card, Checkbox, Select, Spinner, TextField } from '../ui';
import { organisationWord } from '../whitelabel/words';
import { DocumentMessages, type DocumentPageView, docAction, saveRequirements } from './api';

type RequirementType = 'primary' | 'secondary';

/** The job roles of an organisation (its own and inherited), to choose who must read a document. */
function useRoles(slug: string) {
  return useQuery({
    queryKey: ['entities', slug, 'roles', 'options'],
    enabled: Boolean(slug),
    queryFn: async () =>
      (
        await api.get<Paged<{ id: number; name: string }>>(`/entities/${encodeURIComponent(slug)}/roles`, {
          params: { per_page: 100 },
        })
      ).data.data,
  });
}

/** Mandatory / Required in the organisation's own words. */
export function useRequirementWords() {
  const wl = useWhitelabel();
  return (type: RequirementType) =>
    type === 'primary' ? wl.primaryComplianceAltName : wl.secondaryComplianceAltName;
}

/**
 * "Who must read this": for one organisation, the job roles that must read the document and whether it is
 * Mandatory or Required (PUT /documents/{id}/requirements sets that organisation's list). The current requirements
 * of every organisation are listed above the form.
 */
export function RequirementsCard({ doc }: { doc: DocumentPageView }) {
  const wl = useWhitelabel();
  const words = useRequirementWords();
  const queryClient = useQueryClient();
  const entities = useEntityOptions();
  const [slug, setSlug] = useState(doc.entity.slug);
  const roles = useRoles(slug);
  const current = doc.required_for.filter((r) => r.entity.slug === slug);
  const [chosen, setChosen] = useState<number[]>([]);
  const [type, setType] = useState<RequirementType>('primary');
  const [graceDays, setGraceDays] = useState('');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  // The form starts from what is saved for the chosen organisation (again after each save).
  const saved = JSON.stringify(current.map((r) => [r.role.id, r.type]));
  // biome-ignore lint/correctness/useExhaustiveDependencies: `saved` stands for `current`
  useEffect(() => {
    setChosen(current.map((r) => r.role.id));
    setType(current[0]?.type ?? 'primary');
    setRefusal(null);
  }, [slug, saved]);

  const toggle = (id: number, on: boolean) =>
    setChosen((ids) => (on ? [...ids, id] : ids.filter((x) => x !== id)));
  const save = async () => {
    setBusy(true);
    setRefusal(null);
    try {
      await docAction(
        queryClient,
        () =>
          saveRequirements(doc.id, {
            entity: slug,
            role_ids: chosen,
            type,
            ...(graceDays.trim() === '' ? {} : { grace_days: Number(graceDays) }),
          }),
        DocumentMessages.requirementsSaved,
        { quietErrors: true },
      );
    } catch (error) {
      setRefusal(errorEnvelope(error, 'The job roles could not be saved.').message ?? null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="Who must read this" data-testid="requirements">
      <div className="space-y-4">
        {doc.required_for.length ? (
          <ul className="space-y-1 text-sm text-slate-800" aria-label="Job roles that must read it">
            {doc.required_for.map((r) => (
              <li key={`${r.entity.id}-${r.role.id}`} className="flex flex-wrap items-center gap-2">
                <span className="wrap-anywhere">
                  {r.role.name}, {r.entity.name}
                </span>
                <Badge tone={r.type === 'primary' ? 'danger' : 'primary'}>{words(r.type)}</Badge>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-700">No job role must read it yet.</p>
        )}
        <Select
          label={organisationWord(wl)}
          value={slug}
          onChange={(e) => setSlug(e.target.value)}
          options={(entities.data ?? [{ slug: doc.entity.slug, name: doc.entity.name, parent: null }]).map(
            (e) => ({ value: e.slug, label: e.parent ? `${e.name} (${e.parent})` : e.name }),
          )}
        />
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-800">Job roles</legend>
          {roles.isPending ? (
            <Spinner label="Loading job roles" />
          ) : roles.isError ? (
            <p role="alert" className="text-sm text-danger-800">
              {errorEnvelope(roles.error, 'The job roles could not be loaded.').message}
            </p>
          ) : roles.data.length === 0 ? (
            <p className="text-sm text-slate-700">
              This {organisationWord(wl).toLowerCase()} has no job roles yet.
            </p>
          ) : (
            <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
              {roles.data.map((role) => (
                <Checkbox
                  key={role.id}
                  label={role.name}
                  checked={chosen.includes(role.id)}
                  onChange={(e) => toggle(role.id, e.target.checked)}
                />
              ))}
            </div>
          )}
        </fieldset>
        <Select
          label="How"
          value={type}
          onChange={(e) => setType(e.target.value as RequirementType)}
          options={[
            { value: 'primary', label: words('primary') },
            { value: 'secondary', label: words('secondary') },
          ]}
        />
        <TextField
          label="Days to read it"
          type="number"
          inputMode="numeric"
          min={0}
          max={365}
          value={graceDays}
          onChange={(e) => setGraceDays(e.target.value)}
          hint={`For job roles added now: until then those who have not read it are due, not out of date. Leave empty for the ${wl.entityAltName.toLowerCase()}'s setting.`}
        />
        {refusal ? (
          <p role="alert" className="text-sm text-danger-800">
            {refusal}
          </p>
        ) : null}
        <Button loading={busy} onClick={() => void save()}>
          Save job roles
        </Button>
      </div>
    </Card>
  );
}
