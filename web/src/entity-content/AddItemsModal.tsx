import { Messages } from '@cc/contracts';
import { useState } from 'react';
import { Modal } from '../app/Modal';
import { hideModal } from '../app/modal';
import { notifySuccess } from '../app/notifications';
import { errorEnvelope } from '../entities/shared';
import { Badge, Button, FormError, SearchInput, Spinner, Toggle } from '../ui';
import { type AssignmentKind, addAssignments, useCatalogue } from './api';

export const addModalName = (kind: AssignmentKind) => `entity-${kind}-add`;

/**
 * Picks courses or content items from the catalogue (GET /courses, /content) and makes them available to the entity
 * (POST /entities/{slug}/courses or /content, several content items at once through POST /entity-content).
 * Items already listed for the entity are shown as added.
 */
export function AddItemsModal({
  slug,
  kind,
  entityName,
  assigned,
  onAdded,
}: {
  slug: string;
  kind: AssignmentKind;
  entityName: string;
  assigned: ReadonlySet<number>;
  onAdded: () => Promise<unknown>;
}) {
  const name = addModalName(kind);
  return (
    <Modal name={name} title={kind === 'course' ? 'Add courses' : 'Add content'} scrollable maxWidth="640px">
      {() => (
        <Picker
          kind={kind}
          slug={slug}
          entityName={entityName}
          assigned={assigned}
          onDone={async () => {
            hideModal(name);
            await onAdded();
          }}
        />
      )}
    </Modal>
  );
}

function Picker({
  kind,
  slug,
  entityName,
  assigned,
  onDone,
}: {
  kind: AssignmentKind;
  slug: string;
  entityName: string;
  assigned: ReadonlySet<number>;
  onDone: () => Promise<void>;
}) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [enabled, setEnabled] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const catalogue = useCatalogue(kind, search, true);
  const plural = kind === 'course' ? 'courses' : 'content items';
  const items = catalogue.data?.data ?? [];

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const message = await addAssignments(slug, kind, [...chosen], enabled);
      notifySuccess(message ?? Messages.successfullyUpdated);
      await onDone();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (chosen.size) void submit();
      }}
    >
      {error ? <FormError error={errorEnvelope(error, Messages.somethingWentWrong)} /> : null}
      <SearchInput label={`Search ${plural}`} onSearch={setSearch} />
      {/* GET /courses answers 'Courses have been fetched.' (spec 2 §8): said once the list has loaded. */}
      <p className="sr-only" aria-live="polite">
        {catalogue.data?.message ?? ''}
      </p>
      {catalogue.isPending ? <Spinner label={`Loading ${plural}`} /> : null}
      {catalogue.isError ? (
        <p role="alert" className="text-sm text-danger-800">
          {
            errorEnvelope(
              catalogue.error,
              kind === 'course' ? 'Failed to fetch courses.' : Messages.failedToFetchContent,
            ).message
          }
        </p>
      ) : null}
      {catalogue.data && !items.length ? (
        <p className="py-4 text-center text-sm text-slate-600">
          {search ? `No ${plural} match “${search}”.` : `There are no ${plural} to add yet.`}
        </p>
      ) : null}
      {items.length ? (
        <fieldset>
          <legend className="sr-only">{`Choose ${plural}`}</legend>
          <ul className="max-h-80 divide-y divide-slate-100 overflow-y-auto rounded-lg ring-1 ring-slate-200">
            {items.map((item) => {
              const already = assigned.has(item.id);
              const id = `pick-${kind}-${item.id}`;
              return (
                <li key={item.id} className="flex items-start gap-3 px-3 py-2.5">
                  <input
                    id={id}
                    type="checkbox"
                    className="focus-ring mt-0.5 h-4 w-4 shrink-0 rounded border-slate-400 accent-[var(--cc-primary-700)]"
                    checked={already || chosen.has(item.id)}
                    disabled={already}
                    onChange={(e) =>
                      setChosen((s) => {
                        const next = new Set(s);
                        if (e.target.checked) next.add(item.id);
                        else next.delete(item.id);
                        return next;
                      })
                    }
                  />
                  <label htmlFor={id} className="min-w-0 flex-1 text-sm">
                    <span className="font-medium text-slate-900">{item.title}</span>
                    <span className="mt-0.5 flex flex-wrap gap-1.5 text-xs text-slate-600">
                      {item.course ? <span>{item.course.title}</span> : null}
                      {item.platform ? <Badge>Catalogue</Badge> : null}
                      {item.published === false ? <Badge tone="warning">Draft</Badge> : null}
                      {already ? <Badge tone="success">Added</Badge> : null}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        </fieldset>
      ) : null}
      <Toggle label={`Switch on at ${entityName} straight away`} checked={enabled} onChange={setEnabled} />
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">
          {chosen.size ? `${chosen.size} chosen` : 'Choose one or more.'}
        </p>
        <div className="flex flex-col-reverse gap-2 sm:flex-row">
          <Button variant="secondary" onClick={() => hideModal(addModalName(kind))}>
            Cancel
          </Button>
          <Button type="submit" loading={busy} disabled={!chosen.size}>
            {kind === 'course' ? 'Add courses' : 'Add content'}
          </Button>
        </div>
      </div>
    </form>
  );
}
