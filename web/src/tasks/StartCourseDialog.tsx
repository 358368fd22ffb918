import { BULK_ATTEMPTS_MAX, MODAL_DEFAULTS } from '@cc/contracts';
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useState } from 'react';
import { Link } from 'react-router';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope, type FieldErrors, serverFieldErrors } from '../entities/shared';
import { searchCourses, searchUsers } from '../results/api';
import { Picker, type PickItem } from '../results/Picker';
import { Button } from '../ui';
import { startBulkAttempts } from './api';

const FAILED = 'The course could not be started for these people.';

/**
 * "Start a course for people" (permission 111 bulk create attempts, POST /attempts/bulk): choose a course and the
 * people; the work carries on as a task (followed on /tasks-in-progress). People who already started it keep
 * their attempt.
 */
export function StartCourseDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [course, setCourse] = useState<PickItem | null>(null);
  const [people, setPeople] = useState<PickItem[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [skipped, setSkipped] = useState<number | null>(null);

  const close = () => {
    if (busy) return;
    setCourse(null);
    setPeople([]);
    setErrors({});
    setSkipped(null);
    onClose();
  };

  const submit = async () => {
    const local: FieldErrors = {};
    if (!course) local.course_id = ['Choose the course to start.'];
    if (!people.length) local.user_ids = ['Choose at least one person.'];
    setErrors(local);
    if (Object.keys(local).length || !course) return;
    setBusy(true);
    try {
      const res = await startBulkAttempts({ course_id: course.id, user_ids: people.map((p) => p.id) });
      notifySuccess(res.message ?? 'Starting the course. Follow it in Tasks in progress.');
      const left = res.data.skipped_user_ids.length;
      if (left) setSkipped(left);
      else {
        setBusy(false);
        close();
      }
    } catch (error) {
      const fields = serverFieldErrors(error);
      setErrors(fields);
      if (!Object.keys(fields).length) notifyError(errorEnvelope(error, FAILED), FAILED);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      className="relative"
      style={{ zIndex: MODAL_DEFAULTS.zIndexStart + 40 }}
    >
      <div className="fixed inset-0 bg-slate-900/60" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center overflow-y-auto p-4">
        <DialogPanel className="w-full max-w-lg rounded-xl bg-white p-6 shadow-xl">
          <DialogTitle className="text-lg font-semibold text-slate-900">
            Start a course for people
          </DialogTitle>
          <p className="mt-1 text-sm text-slate-600">
            Each person gets the course in their learning straight away. Anyone already part-way through it
            keeps their progress.
          </p>
          {skipped !== null ? (
            <div className="mt-4 space-y-3 text-sm text-slate-700" role="status">
              <p>
                Started for the others. {skipped === 1 ? '1 person was' : `${skipped} people were`} not found
                in your organisations and left out.
              </p>
              <p>
                <Link
                  to="/tasks-in-progress"
                  className="font-medium text-primary-800 underline"
                  onClick={close}
                >
                  Follow it in Tasks in progress
                </Link>
              </p>
              <div className="flex justify-end">
                <Button onClick={close}>Close</Button>
              </div>
            </div>
          ) : (
            <div className="mt-4 space-y-4">
              <Picker
                label="Course"
                queryKey="bulk-attempts-course"
                value={course}
                onChange={setCourse}
                search={(text) => searchCourses(text)}
                placeholder="Search courses"
                error={errors.course_id ?? errors.content_id}
                required
              />
              <Picker
                label="People"
                queryKey="bulk-attempts-people"
                value={null}
                clearOnSelect
                onChange={(p) => {
                  if (p && !people.some((x) => x.id === p.id)) setPeople([...people, p]);
                }}
                search={searchUsers}
                placeholder="Search people by name or e-mail"
                hint={`Up to ${BULK_ATTEMPTS_MAX.toLocaleString('en-GB')} people.`}
                error={errors.user_ids}
                required
              />
              {people.length ? (
                <ul className="flex flex-wrap gap-2" aria-label="People chosen">
                  {people.map((p) => (
                    <li
                      key={p.id}
                      className="flex max-w-full items-center gap-1 rounded-full bg-slate-100 py-1 pl-3 pr-1 text-sm"
                    >
                      <span className="truncate">{p.label}</span>
                      <button
                        type="button"
                        className="focus-ring rounded-full px-1.5 text-slate-600 hover:bg-slate-200"
                        aria-label={`Remove ${p.label}`}
                        onClick={() => setPeople(people.filter((x) => x.id !== p.id))}
                      >
                        ×
                      </button>
                    </li>
                  ))}
                </ul>
              ) : null}
              <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                <Button variant="secondary" onClick={close} disabled={busy}>
                  Cancel
                </Button>
                <Button onClick={() => void submit()} loading={busy}>
                  Start the course
                </Button>
              </div>
            </div>
          )}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
