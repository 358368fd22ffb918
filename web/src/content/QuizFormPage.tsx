import { Messages, QUIZ_PASS_MARK_DEFAULT } from '@cc/contracts';
import { useCallback, useState } from 'react';
import { useParams } from 'react-router';
import { api, type Envelope } from '../app/api';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope, FormSection } from '../entities/shared';
import { TextField, Toggle } from '../ui';
import { KINDS, type QuizDto, routeId } from './api';
import { EditorForm, EditorFrame, FormFooter, useEditor } from './editor';
import { checkQuiz, move, type QuizFormState, quizToForm, quizToPayload, savedQuestionOrder } from './logic';
import { QuestionsEditor } from './QuestionsEditor';

/** `/content-creator/quizzes/create` and `/update/{id}` (spec 2 §3 Quiz; POST /questions/changeOrder). */
export default function QuizFormPage() {
  const id = routeId(useParams().id);
  const k = KINDS.quizzes;
  const ed = useEditor({
    kind: 'quizzes',
    id,
    toForm: useCallback((q: QuizDto | null) => quizToForm(q, QUIZ_PASS_MARK_DEFAULT), []),
    listPath: k.base,
    updatePath: (q) => `${k.base}/update/${q.id}`,
    created: Messages.quizCreated,
    updated: Messages.quizUpdated,
  });
  const [clientErrors, setClientErrors] = useState<Record<string, string[]>>({});
  const [moving, setMoving] = useState(false);
  const { form, setForm, item } = ed;
  const creating = id === null;
  const errors = { ...ed.fieldErrors, ...clientErrors };
  const set = (patch: Partial<QuizFormState>) => setForm((f) => (f ? { ...f, ...patch } : f));

  const submit = () => {
    if (!form) return;
    const found = checkQuiz(form);
    setClientErrors(found);
    if (Object.keys(found).length) return;
    ed.save.mutate(quizToPayload(form));
  };
  /** Saved questions are re-ordered on the server at once; with unsaved ones the order goes with the next save. */
  const onMove = async (index: number, delta: -1 | 1) => {
    if (!form) return;
    const next = { ...form, questions: move(form.questions, index, delta) };
    const ids = savedQuestionOrder(next);
    const savedIds = (item?.questions ?? []).map((q) => q.id);
    setForm(next);
    if (!item || !ids || ids.length !== savedIds.length || !savedIds.every((x) => ids.includes(x))) return;
    setMoving(true);
    try {
      const res = await api.post<Envelope<unknown>>('/questions/changeOrder', { quiz_id: item.id, ids });
      notifySuccess(res.data.message ?? Messages.questionReordered);
    } catch (error) {
      setForm(form);
      notifyError(errorEnvelope(error, Messages.somethingWentWrong), Messages.somethingWentWrong);
    } finally {
      setMoving(false);
    }
  };

  return (
    <EditorFrame
      editor={ed}
      kind="quizzes"
      title={creating ? 'Add a quiz' : (item?.title ?? 'Edit quiz')}
      listLabel={k.plural}
      listPath={k.base}
      clientErrors={clientErrors}
    >
      {form ? (
        <EditorForm label="Quiz" onSubmit={submit}>
          <FormSection title="Quiz details">
            <TextField
              label="Title"
              required
              value={form.title}
              onChange={(e) => set({ title: e.target.value })}
              error={errors.title}
            />
            <TextField
              label="Pass mark (%)"
              type="number"
              inputMode="numeric"
              min={0}
              max={100}
              value={form.pass_mark}
              onChange={(e) => set({ pass_mark: e.target.value })}
              error={errors.pass_mark}
            />
            <Toggle label="Published" checked={form.published} onChange={(published) => set({ published })} />
            <Toggle
              label="Ask questions in a random order"
              checked={form.is_randomized}
              onChange={(is_randomized) => set({ is_randomized })}
            />
          </FormSection>
          <FormSection
            title="Questions"
            columns={1}
            description="Each question needs at least two answers, and at least one of them marked correct."
          >
            <QuestionsEditor
              questions={form.questions}
              onChange={(questions) => set({ questions })}
              onMove={(i, d) => void onMove(i, d)}
              errors={errors}
              moving={moving}
            />
          </FormSection>
          <FormFooter cancelTo={k.base} saving={ed.save.isPending} creating={creating} />
        </EditorForm>
      ) : null}
    </EditorFrame>
  );
}
