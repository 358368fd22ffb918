import { CreateDocumentFields } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type FieldErrors, useFormSave, zodFieldErrors } from '../entities/shared';
import { FormDialog, TextArea, TextField } from '../ui';
import { DocumentMessages, docAction, uploadDocument } from './api';
import { CheckQuestionFields } from './CheckQuestionFields';
import {
  checkDocumentFile,
  DOCUMENT_ACCEPT,
  EMPTY_QUESTION,
  fileSize,
  type QuestionDraft,
  questionOf,
} from './checks';

/**
 * The file input with its check shown as soon as a file is chosen (type by name and first bytes, size), so a wrong
 * file is refused before a long upload; `onChecked` gets the file only when it passed.
 */
export function DocumentFileField({
  label = 'File',
  error,
  onChecked,
}: {
  label?: string;
  error?: string[];
  onChecked: (file: File | null, problem: string | null) => void;
}) {
  const [chosen, setChosen] = useState<File | null>(null);
  return (
    <TextField
      label={label}
      type="file"
      required
      accept={DOCUMENT_ACCEPT}
      className="py-1.5 file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-1"
      hint={
        chosen && !error?.length
          ? `${chosen.name}, ${fileSize(chosen.size)}`
          : 'A PDF, an office document (Word, Excel, PowerPoint, OpenDocument) or an image; up to 25 MB.'
      }
      onChange={async (e) => {
        const file = e.target.files?.[0] ?? null;
        setChosen(file);
        const problem = await checkDocumentFile(file);
        onChecked(problem ? null : file, problem);
      }}
      error={error}
    />
  );
}

/** Upload a document into a library: title, description, file, optional check question. */
export function UploadDocumentDialog({
  libraryId,
  open,
  onClose,
}: {
  libraryId: number;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [question, setQuestion] = useState<QuestionDraft>(EMPTY_QUESTION);
  const save = useFormSave('The document could not be uploaded.');
  const { errors, reset } = save;
  useEffect(() => {
    if (!open) return;
    setTitle('');
    setDescription('');
    setFile(null);
    setFileProblem(null);
    setQuestion(EMPTY_QUESTION);
    reset();
  }, [open, reset]);

  const submit = () => {
    const fieldErrors: FieldErrors = {};
    const fields = CreateDocumentFields.safeParse({ title, description: description.trim() || null });
    if (!fields.success) Object.assign(fieldErrors, zodFieldErrors(fields.error));
    const problem = fileProblem ?? (file ? null : DocumentMessages.fileMissing);
    if (problem) fieldErrors.file = [problem];
    const q = questionOf(question);
    if (!q.ok) Object.assign(fieldErrors, q.errors);
    if (Object.keys(fieldErrors).length || !file || !q.ok) return save.setErrors(fieldErrors);
    void save.run(
      () =>
        docAction(
          queryClient,
          () => uploadDocument(libraryId, { file, title, description, check_question: q.value }),
          DocumentMessages.documentCreated,
          { quietErrors: true },
        ),
      onClose,
    );
  };

  return (
    <FormDialog
      open={open}
      title="Upload a document"
      description="Staff read it here in the browser; office files are downloaded to read."
      submitLabel="Upload"
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
        error={errors.title}
      />
      <TextArea
        label="Description"
        hint="Optional: who it is for and why it matters."
        value={description}
        maxLength={2000}
        onChange={(e) => setDescription(e.target.value)}
        error={errors.description}
      />
      <DocumentFileField
        error={fileProblem ? [fileProblem] : errors.file}
        onChecked={(f, p) => {
          setFile(f);
          setFileProblem(p);
        }}
      />
      <CheckQuestionFields value={question} onChange={setQuestion} errors={errors} />
    </FormDialog>
  );
}
