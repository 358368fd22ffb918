import { useWhitelabel } from '../app/whitelabel';
import { Badge, Card, EmptyState, PageHeader, Spinner } from '../ui';
import { organisationWord, sitesWord } from '../whitelabel/words';
import { InspectionPackButton } from './InspectionPackButton';
import { usePackPlaces } from './use-pack-places';

/**
 * /reports/inspection-pack (issue 33 §6): the inspection pack of each organisation the manager can see, one click
 * each, without going through the organisation's own page. The pack is a job: its progress shows here and in the
 * header's tasks; when done, its PDF (with the CQC summary page and the sign-off page) and its zip of evidence download.
 */
export default function InspectionPackPage() {
  const wl = useWhitelabel();
  const { places, loading: placesLoading } = usePackPlaces();
  return (
    <div className="space-y-6">
      <PageHeader
        title="Inspection pack"
        breadcrumbs={[{ label: 'Reports' }, { label: 'Inspection pack' }]}
        description={`Everything an inspector asks about staff training (CQC Regulation 18, Staffing), for each of your ${sitesWord(wl).toLowerCase()}.`}
      />
      <Card title="What is in a pack">
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
          <li>
            A PDF that opens with a one-page summary against the CQC's quality statements that training
            evidences (“Safe and effective staffing”, “Learning culture”, “Learning, improvement and
            innovation”): the pack's figures for each, and the pages where the evidence is.
          </li>
          <li>
            Then the training matrix by job role, every gap with its plan, new starters' progress, policy
            receipts, certificates and evidence held, and a sign-off page to sign and date.
          </li>
          <li>
            A zip: that PDF, the full training matrix, and every certificate and evidence file, in a folder
            per person.
          </li>
          <li>
            Making a pack takes a minute or two. You can leave this page: it carries on, and “Tasks in
            progress” at the top of every page shows it.
          </li>
        </ul>
      </Card>
      <Card title={`Your ${sitesWord(wl).toLowerCase()}`} padded={false}>
        {placesLoading ? (
          <div className="flex items-center gap-3 p-5 text-sm text-slate-600" aria-live="polite">
            <Spinner /> Loading…
          </div>
        ) : places.length === 0 ? (
          <EmptyState title={`No ${organisationWord(wl).toLowerCase()} to make a pack for`} />
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Inspection packs">
            {places.map((p) => (
              <li
                key={p.id}
                className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-start sm:justify-between"
              >
                <div className="min-w-0">
                  <p className="font-medium break-words text-slate-900">{p.name}</p>
                  {p.level === 'A' ? (
                    <Badge>{`Whole group, all its ${sitesWord(wl).toLowerCase()}`}</Badge>
                  ) : null}
                </div>
                <InspectionPackButton slug={p.slug} name={p.name} />
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
