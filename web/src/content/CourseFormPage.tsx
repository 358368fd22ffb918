import { type Course, type CourseCategory, Messages } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, type Envelope } from '../app/api';
import { notifyError, notifySuccess } from '../app/notifications';
import { CourseCareCertificateCriteria } from '../care-certificate/admin/CourseCriteria';
import { errorEnvelope, FormSection, serverFieldErrors } from '../entities/shared';
import { Badge, Button, ButtonLink, Card, Select, TextField, Toggle } from '../ui';
import { CONTENT_LABELS, contentNoun, KINDS, routeId, useCategories } from './api';
import { EditorForm, EditorFrame, FormFooter, useEditor } from './editor';

interface CourseForm {
  title: string;
  short_title: string;
  category_id: string;
  published: boolean;
}
const toForm = (c: Course | null): CourseForm => ({
  title: c?.title ?? '',
  short_title: c?.short_title ?? '',
  category_id: c?.category ? String(c.category.id) : '',
  published: c?.published ?? false,
});

/** `/content-creator/courses/create` and `/update/{id}` (spec 2 §3 Course, §7 POST/PATCH/DELETE /courses). */
export default function CourseFormPage() {
  const id = routeId(useParams().id);
  const k = KINDS.courses;
  const ed = useEditor({
    kind: 'courses',
    id,
    toForm: useCallback(toForm, []),
    listPath: k.base,
    updatePath: (c) => `${k.base}/update/${c.id}`,
    created: Messages.courseCreated,
    updated: Messages.courseUpdated,
  });
  const categories = useCategories();
  const { form, setForm } = ed;
  const set = (patch: Partial<CourseForm>) => setForm((f) => (f ? { ...f, ...patch } : f));
  const errors = ed.fieldErrors;
  const submit = () => {
    if (!form) return;
    ed.save.mutate({
      title: form.title,
      short_title: form.short_title.trim() || null,
      category_id: form.category_id ? Number(form.category_id) : null,
      published: form.published,
    });
  };
  const creating = id === null;
  return (
    <EditorFrame
      editor={ed}
      kind="courses"
      title={creating ? 'Add a course' : (ed.item?.title ?? 'Edit course')}
      listLabel={k.plural}
      listPath={k.base}
    >
      {form ? (
        <EditorForm label="Course" onSubmit={submit}>
          <FormSection title="Course details">
            <TextField
              label="Title"
              required
              value={form.title}
              onChange={(e) => set({ title: e.target.value })}
              error={errors.title}
            />
            <TextField
              label="Short title"
              hint="Shown where space is tight, such as the compliance matrix."
              value={form.short_title}
              onChange={(e) => set({ short_title: e.target.value })}
              error={errors.short_title}
              maxLength={100}
            />
            <div className="space-y-2">
              <Select
                label="Category"
                value={form.category_id}
                onChange={(e) => set({ category_id: e.target.value })}
                error={errors.category_id}
                placeholder={categories.isLoading ? 'Loading…' : 'No category'}
                options={(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
              />
              <AddCategory onAdded={(c) => set({ category_id: String(c.id) })} />
            </div>
            <div className="flex items-center sm:pt-7">
              <Toggle
                label="Published"
                checked={form.published}
                onChange={(published) => set({ published })}
              />
            </div>
          </FormSection>
          <FormFooter cancelTo={k.base} saving={ed.save.isPending} creating={creating} />
        </EditorForm>
      ) : null}
      {ed.item ? <CourseContents course={ed.item} /> : null}
      {ed.item ? <CourseCareCertificateCriteria courseId={ed.item.id} /> : null}
    </EditorFrame>
  );
}

/** An inline "add category" (POST /course-categories): the new category is chosen at once. */
function AddCategory({ onAdded }: { onAdded: (c: CourseCategory) => void }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  if (!open)
    return (
      <button
        type="button"
        className="focus-ring rounded text-sm font-medium text-primary-800 underline"
        onClick={() => setOpen(true)}
      >
        Add a category
      </button>
    );
  const add = async () => {
    setBusy(true);
    try {
      const res = await api.post<Envelope<CourseCategory>>('/course-categories', { name });
      await queryClient.invalidateQueries({ queryKey: ['content-creator', 'categories'] });
      onAdded(res.data.data);
      notifySuccess(res.data.message ?? Messages.categoryCreated);
      setName('');
      setError(null);
      setOpen(false);
    } catch (e) {
      setError(e);
      if (!Object.keys(serverFieldErrors(e)).length)
        notifyError(errorEnvelope(e, Messages.somethingWentWrong), '');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col gap-2 rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200 sm:flex-row sm:items-end">
      <div className="flex-1">
        <TextField
          label="New category name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={serverFieldErrors(error).name}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void add();
            }
          }}
        />
      </div>
      <div className="flex gap-2">
        <Button variant="secondary" size="md" onClick={() => setOpen(false)}>
          Cancel
        </Button>
        <Button size="md" loading={busy} disabled={!name.trim()} onClick={() => void add()}>
          Add
        </Button>
      </div>
    </div>
  );
}

/** The course's contents (GET /courses/{id} answers with them), with links to add more of each type. */
function CourseContents({ course }: { course: Course }) {
  const contents = course.contents ?? [];
  return (
    <Card
      title="Contents"
      actions={(['elearning', 'scorm', 'historical', 'face2face'] as const).map((t) => (
        <ButtonLink
          key={t}
          size="sm"
          variant="secondary"
          to={`/content-creator/content/${t}/create?course_id=${course.id}`}
        >
          Add {contentNoun(t)}
        </ButtonLink>
      ))}
    >
      {contents.length ? (
        <ul className="divide-y divide-slate-100">
          {contents.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <Link
                to={`/content-creator/content/${c.type}/update/${c.id}`}
                className="focus-ring rounded text-sm font-medium break-words text-primary-800 hover:underline"
              >
                {c.title}
              </Link>
              <span className="flex gap-1">
                <Badge tone="primary">{CONTENT_LABELS[c.type]}</Badge>
                {c.published ? <Badge tone="success">Published</Badge> : <Badge>Draft</Badge>}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">
          This course has no content yet. Add some with the buttons above.
        </p>
      )}
    </Card>
  );
}
