import { AddVersionFields, UpdateDocumentBody } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type FieldErrors, useFormSave, zodFieldErrors } from '../entities/shared';
import { Checkbox, FormDialog, TextArea, TextField } from '../ui';
import { DocumentMessages, type DocumentPageView, docAction, updateDocument, uploadVersion } from './api';
import { CheckQuestionFields } from './CheckQuestionFields';
import { draftOf, type QuestionDraft, questionOf } from './checks';
import { DocumentFileField } from './UploadDocumentDialog';

/**
 * "Upload a new version": the file and what changed, and the manager confirms that everyone who acknowledged it
 * will be asked again (the server expires their acknowledgements at once).
 */
export function NewVersionDialog({
  doc,
  open,
  onClose,
}: {
  doc: DocumentPageView;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const save = useFormSave('The new version could not be uploaded.');
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const { reset } = save;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time the dialog opens
  useEffect(() => {
    if (!open) return;
    setFile(null);
    setFileProblem(null);
    setNote('');
    setConfirmed(false);
    reset();
  }, [open]);

  const submit = () => {
    const errors: FieldErrors = {};
    const fields = AddVersionFields.safeParse({ change_note: note });
    if (!fields.success) Object.assign(errors, zodFieldErrors(fields.error));
    const problem = fileProblem ?? (file ? null : DocumentMessages.fileMissing);
    if (problem) errors.file = [problem];
    if (!confirmed) errors.confirm = ['Confirm that staff will be asked to read it again.'];
    if (Object.keys(errors).length || !file) return save.setErrors(errors);
    void save.run(
      () =>
        docAction(
          queryClient,
          () => uploadVersion(doc.id, { file, change_note: note }),
          DocumentMessages.versionAdded,
          { quietErrors: true },
        ),
      onClose,
    );
  };

  return (
    <FormDialog
      open={open}
      title="Upload a new version"
      description={`Version ${doc.current.number + 1} of ${doc.title}.`}
      submitLabel="Publish new version"
      busy={save.busy}
      refusal={save.refusal}
      onSubmit={submit}
      onClose={onClose}
    >
      <DocumentFileField
        error={fileProblem ? [fileProblem] : save.errors.file}
        onChecked={(f, p) => {
          setFile(f);
          setFileProblem(p);
        }}
      />
      <TextArea
        label="What changed"
        required
        hint="Staff see this note above the document when they are asked to read it again."
        value={note}
        maxLength={2000}
        onChange={(e) => setNote(e.target.value)}
        error={save.errors.change_note}
      />
      <Checkbox
        label="Everyone who has read it will be asked to read and acknowledge it again"
        checked={confirmed}
        onChange={(e) => setConfirmed(e.target.checked)}
        error={save.errors.confirm}
      />
    </FormDialog>
  );
}

/** Edit the title, description and check question; only the fields changed are sent (PATCH). */
export function EditDocumentDialog({
  doc,
  open,
  onClose,
}: {
  doc: DocumentPageView;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const save = useFormSave('The document could not be saved.');
  const [title, setTitle] = useState(doc.title);
  const [description, setDescription] = useState(doc.description ?? '');
  const [question, setQuestion] = useState<QuestionDraft>(draftOf(doc.check_question_full));
  const { reset } = save;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time the dialog opens
  useEffect(() => {
    if (!open) return;
    setTitle(doc.title);
    setDescription(doc.description ?? '');
    setQuestion(draftOf(doc.check_question_full));
    reset();
  }, [open]);

  const submit = () => {
    const q = questionOf(question);
    const body: Parameters<typeof updateDocument>[1] = {};
    if (title !== doc.title) body.title = title;
    if (description.trim() !== (doc.description ?? '')) body.description = description.trim() || null;
    if (q.ok && JSON.stringify(q.value) !== JSON.stringify(doc.check_question_full ?? null))
      body.check_question = q.value;
    const parsed = UpdateDocumentBody.safeParse(body);
    const errors: FieldErrors = q.ok ? {} : { ...q.errors };
    if (!parsed.success) Object.assign(errors, zodFieldErrors(parsed.error));
    if (Object.keys(errors).length || !parsed.success) return save.setErrors(errors);
    if (!Object.keys(body).length) return onClose();
    void save.run(
      () =>
        docAction(queryClient, () => updateDocument(doc.id, parsed.data), DocumentMessages.documentUpdated, {
          quietErrors: true,
        }),
      onClose,
    );
  };

  return (
    <FormDialog
      open={open}
      title="Edit document"
      submitLabel="Save"
      busy={save.busy}
      refusal={save.refusal}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        label="Title"
        required
        value={title}
        maxLength={200}
        onChange={(e) => setTitle(e.target.value)}
        error={save.errors.title}
      />
      <TextArea
        label="Description"
        value={description}
        maxLength={2000}
        onChange={(e) => setDescription(e.target.value)}
        error={save.errors.description}
      />
      <CheckQuestionFields value={question} onChange={setQuestion} errors={save.errors} />
    </FormDialog>
  );
}
