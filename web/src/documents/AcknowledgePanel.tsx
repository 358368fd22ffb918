import { AcknowledgeBody, formatDate, formatDateTime } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { isApiError } from '../app/api';
import { useAuth } from '../app/auth';
import { errorEnvelope, type FieldErrors, serverFieldErrors, zodFieldErrors } from '../entities/shared';
import { Button, Card, FormError, TextField } from '../ui';
import { acknowledge, DocumentMessages, type DocumentPageView, docAction, docKeys } from './api';

/**
 * "I have read and understood version N": the person types their name, answers the check question if there is one,
 * and confirms; the receipt (name, date, version) replaces the form once the current version is acknowledged. The
 * server decides (opened first, the right answer, the name as on the account); its refusal is shown here in words and
 * nothing typed is lost.
 */
export function AcknowledgePanel({ doc, opened }: { doc: DocumentPageView; opened: boolean }) {
  const mine = doc.my_acknowledgement;
  if (mine && mine.version === doc.current.number) return <Receipt receipt={mine} />;
  return <AcknowledgeForm doc={doc} opened={opened} />;
}

function Receipt({ receipt }: { receipt: NonNullable<DocumentPageView['my_acknowledgement']> }) {
  return (
    <Card title="Your acknowledgement" data-testid="ack-receipt">
      <div role="status" className="space-y-2 text-sm text-slate-800">
        <p className="font-medium text-success-800">
          You have read and understood version {receipt.version}.
        </p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-slate-600">Name</dt>
          <dd className="wrap-anywhere">{receipt.typed_name}</dd>
          <dt className="text-slate-600">Date</dt>
          <dd>{formatDateTime(receipt.acknowledged_at)}</dd>
          <dt className="text-slate-600">Version</dt>
          <dd>{receipt.version}</dd>
        </dl>
      </div>
    </Card>
  );
}

function AcknowledgeForm({ doc, opened }: { doc: DocumentPageView; opened: boolean }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const questionId = useId();
  const [typedName, setTypedName] = useState('');
  const [answer, setAnswer] = useState<number | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const version = doc.current.number;
  const question = doc.check_question;

  const submit = async () => {
    setRefusal(null);
    const fieldErrors: FieldErrors = {};
    const parsed = AcknowledgeBody.safeParse({ typed_name: typedName, answer, version });
    if (!parsed.success) Object.assign(fieldErrors, zodFieldErrors(parsed.error));
    if (question && answer === null) fieldErrors.answer = ['Choose an answer.'];
    if (Object.keys(fieldErrors).length || !parsed.success) return setErrors(fieldErrors);
    setErrors({});
    setBusy(true);
    try {
      await docAction(queryClient, () => acknowledge(doc.id, parsed.data), DocumentMessages.acknowledged, {
        quietErrors: true,
      });
    } catch (error) {
      const fields = serverFieldErrors(error);
      setErrors(fields);
      if (!Object.keys(fields).length)
        setRefusal(errorEnvelope(error, 'Your acknowledgement could not be recorded.').message ?? null);
      // A newer version was published meanwhile: show it (the form asks about the new one).
      if (isApiError(error) && error.status === 409)
        await queryClient.invalidateQueries({ queryKey: docKeys.document(doc.id) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="Read and acknowledge" data-testid="ack-panel">
      <form
        noValidate
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {refusal ? <FormError error={{ message: refusal }} /> : null}
        {doc.my_acknowledgement ? (
          <p className="text-sm text-slate-700" data-testid="earlier-ack">
            You acknowledged version {doc.my_acknowledgement.version} on{' '}
            {formatDate(doc.my_acknowledgement.acknowledged_at)}. Version {version} is new: read it and
            acknowledge it again.
          </p>
        ) : null}
        {!opened ? (
          <p className="text-sm text-slate-700" data-testid="open-first">
            {doc.current.display === 'download'
              ? 'Download the document and read it first.'
              : 'Read the document first.'}
          </p>
        ) : null}
        {question ? (
          <fieldset
            className="space-y-2"
            aria-describedby={errors.answer ? `${questionId}-error` : undefined}
            data-testid="ack-question"
          >
            <legend className="text-sm font-medium text-slate-800">{question.question}</legend>
            {question.options.map((option, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the option's index is the answer sent
              <label key={i} className="flex items-start gap-2 text-sm text-slate-800">
                <input
                  type="radio"
                  name={`${questionId}-answer`}
                  className="focus-ring mt-0.5 h-4 w-4 shrink-0 accent-[var(--cc-primary-700)]"
                  checked={answer === i}
                  onChange={() => setAnswer(i)}
                />
                <span className="wrap-anywhere">{option}</span>
              </label>
            ))}
            {errors.answer ? (
              <p id={`${questionId}-error`} className="text-sm text-danger-700">
                {errors.answer.join(' ')}
              </p>
            ) : null}
          </fieldset>
        ) : null}
        <TextField
          label="Your name"
          required
          autoComplete="name"
          value={typedName}
          maxLength={200}
          hint={user ? `As it appears on your account: ${user.name}` : undefined}
          onChange={(e) => setTypedName(e.target.value)}
          error={errors.typed_name}
        />
        <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-800">
          I have read and understood version {version} of {doc.title}.{' '}
          <span className="text-slate-600">Date: {formatDate(new Date().toISOString())}</span>
        </p>
        {errors.version ? <p className="text-sm text-danger-700">{errors.version.join(' ')}</p> : null}
        <Button type="submit" loading={busy} className="h-auto min-h-10 w-full py-2 whitespace-normal">
          I have read and understood version {version}
        </Button>
      </form>
    </Card>
  );
}
