import { AssignBody, CareCertificateMessages } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useActingAs } from '../app/acting-as';
import { isApiError } from '../app/api';
import { useAuth } from '../app/auth';
import { useWhitelabel } from '../app/whitelabel';
import { type PickItem, searchPeople } from '../bookings/api';
import { londonToday } from '../bookings/LearnerSessionParts';
import { errorEnvelope, type FieldErrors, serverFieldErrors, zodFieldErrors } from '../entities/shared';
import { Picker } from '../results/Picker';
import { FormDialog, FormError, Select, TextField } from '../ui';
import { useCareCertificateSettings } from './admin/api';
import { assign, ccAction, useVersions } from './api';

/**
 * Assign a certificate (86): a person in scope, a version and a start date. The version preselected is the one the
 * organisation in view starts new certificates on (its settings, inherited from above), else the default version.
 */
export function AssignDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const wl = useWhitelabel();
  const queryClient = useQueryClient();
  const versions = useVersions(open);
  const { user } = useAuth();
  const actingAs = useActingAs();
  const settings = useCareCertificateSettings(actingAs?.slug ?? user?.a_entity?.slug ?? null);
  const [person, setPerson] = useState<PickItem | null>(null);
  const [versionId, setVersionId] = useState('');
  const [startedOn, setStartedOn] = useState(londonToday());
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const organisationVersion = settings.data?.default_version_id ?? null;
  const settingsSettled = !settings.isPending;
  useEffect(() => {
    if (!versionId && versions.data?.length && settingsSettled) {
      const preferred =
        versions.data.find((v) => v.id === organisationVersion) ??
        versions.data.find((v) => v.is_default) ??
        versions.data[0];
      if (preferred) setVersionId(String(preferred.id));
    }
  }, [versions.data, versionId, organisationVersion, settingsSettled]);

  const close = () => {
    setPerson(null);
    setErrors({});
    setRefusal(null);
    setStartedOn(londonToday());
    onClose();
  };
  const submit = async () => {
    setRefusal(null);
    const parsed = AssignBody.safeParse({
      user_id: person?.id,
      version_id: versionId ? Number(versionId) : undefined,
      started_on: startedOn || undefined,
    });
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error));
    setErrors({});
    setBusy(true);
    try {
      await ccAction(queryClient, () => assign(parsed.data), CareCertificateMessages.assigned, {
        quietErrors: true,
      });
      close();
    } catch (error) {
      const fields = serverFieldErrors(error);
      setErrors(fields);
      if (!Object.keys(fields).length || (isApiError(error) && error.status !== 422))
        setRefusal(errorEnvelope(error, 'The certificate could not be assigned.').message ?? null);
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog
      open={open}
      title={`Assign the ${wl.certificateGroupMenuName}`}
      description="The person sees it on their page straight away, with what to do next."
      submitLabel="Assign"
      busy={busy}
      onSubmit={() => void submit()}
      onClose={close}
    >
      {refusal ? <FormError error={{ message: refusal }} /> : null}
      <Picker
        label="Person"
        queryKey="care-certificate-people"
        search={searchPeople}
        placeholder="Type a name or e-mail"
        value={person}
        onChange={setPerson}
        error={errors.user_id}
        required
      />
      <Select
        label="Version"
        required
        value={versionId}
        onChange={(e) => setVersionId(e.target.value)}
        placeholder={versions.isLoading ? 'Loading…' : 'Choose a version'}
        options={(versions.data ?? []).map((v) => ({
          value: v.id,
          label: `${v.title}${v.is_default ? ' (default)' : ''}`,
        }))}
        error={errors.version_id}
      />
      <TextField
        label="Start date"
        type="date"
        value={startedOn}
        onChange={(e) => setStartedOn(e.target.value)}
        hint="The expected completion date is counted from here."
        error={errors.started_on}
      />
    </FormDialog>
  );
}
