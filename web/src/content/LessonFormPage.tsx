import { Messages } from '@cc/contracts';
import { useCallback } from 'react';
import { useParams } from 'react-router';
import { FormSection } from '../entities/shared';
import { TextField } from '../ui';
import { KINDS, type LessonDto, routeId, useOptions } from './api';
import { EditorForm, EditorFrame, FormFooter, useEditor } from './editor';
import { LinkedItems } from './LinkedItems';

interface LessonForm {
  title: string;
  question_qty: string;
}
const toForm = (l: LessonDto | null): LessonForm => ({
  title: l?.title ?? '',
  question_qty: l?.question_qty == null ? '' : String(l.question_qty),
});

/** `/content-creator/lessons/create` and `/update/{id}` (spec 2 §3 Lesson; topics via POST /lessons/{id}/topics). */
export default function LessonFormPage() {
  const id = routeId(useParams().id);
  const k = KINDS.lessons;
  const ed = useEditor({
    kind: 'lessons',
    id,
    toForm: useCallback(toForm, []),
    listPath: k.base,
    updatePath: (l) => `${k.base}/update/${l.id}`,
    created: Messages.lessonCreated,
    updated: Messages.lessonUpdated,
  });
  const topics = useOptions('topics', {}, id !== null);
  const { form, setForm, item } = ed;
  const creating = id === null;
  const submit = () => {
    if (!form) return;
    const qty = form.question_qty.trim();
    ed.save.mutate({ title: form.title, question_qty: qty === '' ? null : Number(qty) });
  };
  return (
    <EditorFrame
      editor={ed}
      kind="lessons"
      title={creating ? 'Add a lesson' : (item?.title ?? 'Edit lesson')}
      listLabel={k.plural}
      listPath={k.base}
    >
      {form ? (
        <EditorForm label="Lesson" onSubmit={submit}>
          <FormSection title="Lesson details">
            <TextField
              label="Title"
              required
              value={form.title}
              onChange={(e) => setForm({ ...form, title: e.target.value })}
              error={ed.fieldErrors.title}
            />
            <TextField
              label="Questions asked"
              hint="How many quiz questions a learner is asked after this lesson (leave empty for none)."
              type="number"
              inputMode="numeric"
              min={0}
              value={form.question_qty}
              onChange={(e) => setForm({ ...form, question_qty: e.target.value })}
              error={ed.fieldErrors.question_qty}
            />
          </FormSection>
          <FormFooter cancelTo={k.base} saving={ed.save.isPending} creating={creating} />
        </EditorForm>
      ) : null}
      {item ? (
        <LinkedItems
          title="Topics"
          noun="topic"
          endpoint={`/lessons/${item.id}/topics`}
          field="topic_id"
          items={item.topics ?? []}
          options={topics.data}
          editPath={(tid) => `${KINDS.topics.base}/update/${tid}`}
          onChange={(next) => ed.patchItem({ topics: next as LessonDto['topics'] })}
        />
      ) : (
        <p className="text-sm text-slate-600">Topics can be attached once the lesson is created.</p>
      )}
    </EditorFrame>
  );
}
