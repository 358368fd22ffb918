import { ContentPerm, type DesignView, type ErrorEnvelope } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { usePermission } from '../app/auth';
import { notifySuccess } from '../app/notifications';
import { errorEnvelope, type FieldErrors, serverFieldErrors } from '../entities/shared';
import { FormDialog, FormError, Select, TextField } from '../ui';
import { designerKeys, publishDesign, useCourseOptions } from './api';

/**
 * Publish a design (contracts designer.ts): the first time into a course (one the author may change, or a new one
 * of a title), with the quiz's pass mark; later publishes update the same content, so only the pass mark is asked.
 */
export function PublishDialog({
  design,
  open,
  onClose,
  onPublished,
}: {
  design: DesignView;
  open: boolean;
  onClose: () => void;
  onPublished: (design: DesignView) => void;
}) {
  const queryClient = useQueryClient();
  const first = design.content === null;
  const mayAddCourses = usePermission([ContentPerm.addCourses]);
  const courses = useCourseOptions(open && first);
  const [mode, setMode] = useState<'new' | 'existing'>(mayAddCourses ? 'new' : 'existing');
  const [courseId, setCourseId] = useState('');
  const [courseTitle, setCourseTitle] = useState(design.title);
  const [passMark, setPassMark] = useState('80');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<Partial<ErrorEnvelope> | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    setErrors({});
    setFailure(null);
    try {
      const target = !first
        ? {}
        : mode === 'new'
          ? { new_course_title: courseTitle }
          : courseId
            ? { course_id: Number(courseId) }
            : {};
      const res = await publishDesign(design.id, { ...target, pass_mark: Number(passMark) });
      notifySuccess(res.message ?? 'Published.');
      await queryClient.invalidateQueries({ queryKey: designerKeys.all });
      onPublished(res.data);
      onClose();
    } catch (e) {
      setErrors(serverFieldErrors(e));
      setFailure(errorEnvelope(e, 'The design could not be published.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog
      open={open}
      title={first ? 'Publish as e-learning' : 'Publish the changes'}
      description={
        first
          ? 'Learners take it like any other e-learning: one lesson, a topic for each page, and a quiz made from the questions.'
          : `Updates “${design.content?.title ?? design.title}” for learners. People part-way through keep their progress.`
      }
      submitLabel="Publish"
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
    >
      <FormError error={failure} />
      {first ? (
        <>
          <Select
            label="Course"
            value={mode}
            options={[
              ...(mayAddCourses ? [{ value: 'new', label: 'A new course' }] : []),
              { value: 'existing', label: 'An existing course' },
            ]}
            onChange={(e) => setMode(e.target.value === 'new' ? 'new' : 'existing')}
          />
          {mode === 'new' ? (
            <TextField
              label="New course title"
              value={courseTitle}
              maxLength={200}
              error={errors.new_course_title}
              onChange={(e) => setCourseTitle(e.target.value)}
            />
          ) : (
            <Select
              label="Existing course"
              value={courseId}
              placeholder={courses.isLoading ? 'Loading courses…' : 'Choose a course'}
              options={courses.data ?? []}
              error={errors.course_id}
              onChange={(e) => setCourseId(e.target.value)}
            />
          )}
        </>
      ) : null}
      <TextField
        label="Quiz pass mark (%)"
        type="number"
        min={0}
        max={100}
        value={passMark}
        error={errors.pass_mark}
        hint="Used when the design has questions."
        onChange={(e) => setPassMark(e.target.value)}
      />
    </FormDialog>
  );
}
