import { type Content, ContentPerm, type ContentType, Messages } from '@cc/contracts';
import { useCallback } from 'react';
import { Navigate, useLocation, useParams, useSearchParams } from 'react-router';
import { usePermission } from '../app/auth';
import { FormSection } from '../entities/shared';
import { Checkbox, Select, TextArea, TextField, Toggle } from '../ui';
import { CONTENT_LABELS, contentNoun, KINDS, routeId, useOptions } from './api';
import { isContentType } from './ContentListPage';
import { EditorForm, EditorFrame, FormFooter, useEditor } from './editor';
import { ImageField, type ImageRef } from './ImageField';
import { LinkedItems } from './LinkedItems';
import { type PrereqOption, prereqsToPayload, prereqsToState } from './logic';
import { PackageUpload } from './PackageUpload';
import { PrerequisitesEditor } from './PrerequisitesEditor';

interface ContentForm {
  title: string;
  course_id: string;
  aims: string;
  outcomes: string;
  image: ImageRef | null;
  estimated_duration: string;
  cpd_accredited: boolean;
  admin_only: boolean;
  published: boolean;
  prerequisites: PrereqOption[];
}

const toForm = (c: Content | null, courseId = ''): ContentForm => ({
  title: c?.title ?? '',
  course_id: c ? String(c.course_id) : courseId,
  aims: c?.aims ?? '',
  outcomes: c?.outcomes ?? '',
  image: c?.image ?? null,
  estimated_duration: c?.estimated_duration == null ? '' : String(c.estimated_duration),
  cpd_accredited: c?.cpd_accredited ?? false,
  admin_only: c?.admin_only ?? false,
  published: c?.published ?? false,
  prerequisites: prereqsToState(c?.prerequisites ?? []),
});

/** `/content-creator/content/{type}/create` and `/update/{id}` (spec 2 §3 Content, §7 /content). */
export default function ContentFormPage() {
  const type = useLocation().pathname.split('/')[3];
  if (!isContentType(type)) return <Navigate to="/404" replace />;
  return <ContentEditor key={type} type={type} />;
}

function ContentEditor({ type }: { type: ContentType }) {
  const id = routeId(useParams().id);
  const [search] = useSearchParams();
  const presetCourse = /^\d+$/.test(search.get('course_id') ?? '') ? (search.get('course_id') as string) : '';
  const listPath = `${KINDS.content.base}/${type}`;
  const canRestrict = usePermission([ContentPerm.restrictContent]);
  const ed = useEditor({
    kind: 'content',
    id,
    toForm: useCallback((c: Content | null) => toForm(c, presetCourse), [presetCourse]),
    listPath,
    updatePath: (c) => `${listPath}/update/${c.id}`,
    created: Messages.contentCreated,
    updated: Messages.contentUpdated,
  });
  const courses = useOptions('courses');
  const contents = useOptions('content');
  const lessons = useOptions('lessons', {}, type === 'elearning' && id !== null);
  const quizzes = useOptions('quizzes', {}, type === 'elearning' && id !== null);
  const { form, setForm, item } = ed;
  const set = (patch: Partial<ContentForm>) => setForm((f) => (f ? { ...f, ...patch } : f));
  const errors = ed.fieldErrors;
  const creating = id === null;
  const label = CONTENT_LABELS[type];

  const submit = () => {
    if (!form) return;
    const duration = form.estimated_duration.trim();
    ed.save.mutate({
      ...(creating ? { type } : {}),
      title: form.title,
      course_id: form.course_id ? Number(form.course_id) : undefined,
      aims: form.aims.trim() || null,
      outcomes: form.outcomes.trim() || null,
      image_id: form.image?.id ?? null,
      estimated_duration: duration === '' ? null : Number(duration),
      cpd_accredited: form.cpd_accredited,
      ...(canRestrict ? { admin_only: form.admin_only } : {}),
      published: form.published,
      prerequisites: prereqsToPayload(form.prerequisites, id),
    });
  };

  return (
    <EditorFrame
      editor={ed}
      kind="content"
      title={creating ? `Add ${contentNoun(type)} content` : (item?.title ?? 'Edit content')}
      listLabel={`${label} content`}
      listPath={listPath}
    >
      {form ? (
        <EditorForm label={`${label} content`} onSubmit={submit}>
          <FormSection title="Details">
            <TextField
              label="Title"
              required
              value={form.title}
              onChange={(e) => set({ title: e.target.value })}
              error={errors.title}
            />
            <Select
              label="Course"
              required
              value={form.course_id}
              onChange={(e) => set({ course_id: e.target.value })}
              error={errors.course_id}
              placeholder={courses.isLoading ? 'Loading…' : 'Choose a course'}
              options={(courses.data ?? []).map((c) => ({ value: c.id, label: c.title }))}
            />
            <TextArea
              label="Aims"
              value={form.aims}
              onChange={(e) => set({ aims: e.target.value })}
              error={errors.aims}
            />
            <TextArea
              label="Outcomes"
              value={form.outcomes}
              onChange={(e) => set({ outcomes: e.target.value })}
              error={errors.outcomes}
            />
            <TextField
              label="Estimated duration (minutes)"
              type="number"
              inputMode="numeric"
              min={0}
              value={form.estimated_duration}
              onChange={(e) => set({ estimated_duration: e.target.value })}
              error={errors.estimated_duration}
            />
            <ImageField value={form.image} onChange={(image) => set({ image })} error={errors.image_id} />
          </FormSection>
          <FormSection title="Settings" columns={1}>
            <Toggle label="Published" checked={form.published} onChange={(published) => set({ published })} />
            <Checkbox
              label="CPD accredited"
              checked={form.cpd_accredited}
              onChange={(e) => set({ cpd_accredited: e.target.checked })}
              error={errors.cpd_accredited}
            />
            {canRestrict ? (
              <Checkbox
                label="Admin only"
                hint="Only administrators see this content; learners do not."
                checked={form.admin_only}
                onChange={(e) => set({ admin_only: e.target.checked })}
                error={errors.admin_only}
              />
            ) : null}
          </FormSection>
          <FormSection title="Prerequisites" columns={1}>
            <PrerequisitesEditor
              value={form.prerequisites}
              onChange={(prerequisites) => set({ prerequisites })}
              contents={contents.data}
              selfId={id}
              error={Object.entries(errors)
                .filter(([key]) => key.startsWith('prerequisites'))
                .flatMap(([, m]) => m)}
            />
          </FormSection>
          <FormFooter cancelTo={listPath} saving={ed.save.isPending} creating={creating} />
        </EditorForm>
      ) : null}
      {item && type === 'elearning' ? (
        <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">
          <LinkedItems
            title="Lessons"
            noun="lesson"
            endpoint={`/content/${item.id}/lessons`}
            field="lesson_id"
            items={item.lessons ?? []}
            options={lessons.data}
            editPath={(lid) => `${KINDS.lessons.base}/update/${lid}`}
            onChange={(next) => ed.patchItem({ lessons: next as Content['lessons'] })}
          />
          <LinkedItems
            title="Quizzes"
            noun="quiz"
            endpoint={`/content/${item.id}/quizzes`}
            field="quiz_id"
            items={item.quizzes ?? []}
            options={quizzes.data}
            editPath={(qid) => `${KINDS.quizzes.base}/update/${qid}`}
            onChange={(next) => ed.patchItem({ quizzes: next as Content['quizzes'] })}
          />
        </div>
      ) : null}
      {item && type === 'scorm' ? (
        <PackageUpload
          title="SCORM package"
          endpoint={`/content/${item.id}/package`}
          accept=".zip,application/zip"
          hint="A SCORM 1.2 or SCORM 2004 package as a zip file. Uploading again replaces the package."
          invalidate={['content-creator', 'content', 'one', item.id]}
        />
      ) : null}
      {creating && type === 'elearning' ? (
        <p className="text-sm text-slate-600">
          Lessons and quizzes can be attached once the content is created.
        </p>
      ) : null}
    </EditorFrame>
  );
}
