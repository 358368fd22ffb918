import {
  CareCertificateMessages,
  type CertificateView,
  EvidenceFileFields,
  EvidenceResultBody,
  formatDate,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { errorEnvelope, type FieldErrors, serverFieldErrors, zodFieldErrors } from '../entities/shared';
import { FormDialog, FormError, Select, TextArea, TextField } from '../ui';
import { ccAction, linkResult, uploadEvidence, usePersonResults } from './api';
import { CriteriaChooser } from './CriteriaChooser';

export type EvidenceMode = { kind: 'file' | 'result'; standardId?: number };

/** The file types the server takes (PDF, PNG, JPEG); a phone offers its camera for the images. */
const ACCEPT = 'application/pdf,image/png,image/jpeg,.pdf,.png,.jpg,.jpeg';

/** Upload a file or link a training record as evidence of chosen criteria. */
export function EvidenceDialog({
  view,
  mode,
  onClose,
}: {
  view: CertificateView;
  mode: EvidenceMode | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const results = usePersonResults(view.user.uuid, mode?.kind === 'result');
  const [file, setFile] = useState<File | null>(null);
  const [resultId, setResultId] = useState('');
  const [description, setDescription] = useState('');
  const [criteria, setCriteria] = useState<number[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!mode) return;
    setFile(null);
    setResultId('');
    setDescription('');
    setCriteria([]);
    setErrors({});
    setRefusal(null);
  }, [mode]);

  const submit = async () => {
    if (!mode) return;
    setRefusal(null);
    const fieldErrors: FieldErrors = {};
    let run: () => Promise<{ data?: { message?: string } | null }>;
    if (mode.kind === 'file') {
      const parsed = EvidenceFileFields.safeParse({
        description: description.trim() || null,
        criterion_ids: criteria,
      });
      if (!parsed.success) Object.assign(fieldErrors, zodFieldErrors(parsed.error));
      if (!file) fieldErrors.file = ['Choose a file.'];
      const chosen = file;
      run = () => uploadEvidence(view.uuid, { file: chosen as File, description, criterion_ids: criteria });
    } else {
      const parsed = EvidenceResultBody.safeParse({
        result_id: resultId ? Number(resultId) : undefined,
        criterion_ids: criteria,
        description: description.trim() || null,
      });
      if (!parsed.success) Object.assign(fieldErrors, zodFieldErrors(parsed.error));
      run = () => linkResult(view.uuid, parsed.data as EvidenceResultBody);
    }
    if (Object.keys(fieldErrors).length) return setErrors(fieldErrors);
    setErrors({});
    setBusy(true);
    try {
      await ccAction(queryClient, run, CareCertificateMessages.evidenceAdded, { quietErrors: true });
      onClose();
    } catch (error) {
      const fields = serverFieldErrors(error);
      setErrors(fields);
      if (!Object.keys(fields).length)
        setRefusal(errorEnvelope(error, 'The evidence could not be added.').message ?? null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog
      open={mode !== null}
      title={mode?.kind === 'result' ? 'Link a training record' : 'Upload evidence'}
      description={
        mode?.kind === 'result'
          ? `A course ${view.user.name} passed that shows the chosen criteria.`
          : 'A PDF, or a photo (PNG or JPEG) of a workbook page or a certificate.'
      }
      submitLabel={mode?.kind === 'result' ? 'Link record' : 'Upload'}
      busy={busy}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      {refusal ? <FormError error={{ message: refusal }} /> : null}
      {mode?.kind === 'result' ? (
        <Select
          label="Training record"
          required
          value={resultId}
          placeholder={
            results.isLoading
              ? 'Loading…'
              : results.data?.length
                ? 'Choose a record'
                : 'No passed training yet'
          }
          onChange={(e) => setResultId(e.target.value)}
          options={(results.data ?? []).map((r) => ({
            value: r.id,
            label: `${r.course.title}, ${formatDate(r.completed_at)}`,
          }))}
          error={errors.result_id}
        />
      ) : (
        <TextField
          label="File"
          type="file"
          required
          accept={ACCEPT}
          className="py-1.5 file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-1"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          error={errors.file}
        />
      )}
      <TextArea
        label="Description"
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        hint="Optional: what it shows."
        error={errors.description}
      />
      <CriteriaChooser
        standards={view.standards}
        value={criteria}
        onChange={setCriteria}
        error={errors.criterion_ids}
        initialStandardId={mode?.standardId}
        legend="Criteria it evidences"
      />
    </FormDialog>
  );
}
