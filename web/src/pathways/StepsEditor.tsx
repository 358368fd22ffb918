import type { PathwayStepType } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { FieldErrors } from '../entities/shared';
import { CoursePicker, Picker } from '../results/Picker';
import { Button, cx, Select, TextArea, TextField } from '../ui';
import { fetchLibraries, searchDocuments } from './api';
import {
  type DraftStep,
  moveStep,
  moveStepTo,
  newStep,
  otherStepErrors,
  removeStep,
  stepErrors,
  stepName,
  updateStep,
} from './editor';
import { STEP_TYPE } from './labels';

/**
 * The steps of the pathway editor: add a course, a document or a sign-off; reorder with the Move up / Move down
 * buttons (keyboard) or by dragging a step's handle; remove. Each step shows its own 422 errors.
 */
export function StepsEditor({
  steps,
  onChange,
  errors,
}: {
  steps: DraftStep[];
  onChange: (steps: DraftStep[]) => void;
  errors: FieldErrors;
}) {
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const [announce, setAnnounce] = useState('');
  const add = (type: PathwayStepType) => onChange([...steps, newStep(type)]);
  const move = (index: number, delta: -1 | 1) => {
    const next = moveStep(steps, index, delta);
    if (next === steps) return;
    onChange(next);
    setAnnounce(
      `${stepName(steps[index] as DraftStep)} is now step ${index + delta + 1} of ${steps.length}.`,
    );
  };
  const drop = (to: number) => {
    if (dragging !== null) onChange(moveStepTo(steps, dragging, to));
    setDragging(null);
    setOver(null);
  };
  const listError = errors.steps;
  return (
    <div className="space-y-4">
      <p className="sr-only" aria-live="polite">
        {announce}
      </p>
      {steps.length ? (
        <ol className="space-y-3" aria-label="Steps">
          {steps.map((step, index) => (
            <li
              key={step.id}
              data-testid="pathway-step"
              onDragOver={(e) => {
                if (dragging === null) return;
                e.preventDefault();
                setOver(index);
              }}
              onDrop={(e) => {
                e.preventDefault();
                drop(index);
              }}
              className={cx(
                'rounded-lg bg-white ring-1 ring-slate-200',
                over === index && dragging !== null && dragging !== index ? 'ring-2 ring-primary-500' : '',
                dragging === index ? 'opacity-60' : '',
              )}
            >
              <StepRow
                step={step}
                index={index}
                count={steps.length}
                errors={stepErrors(errors, index)}
                onChange={(patch) => onChange(updateStep(steps, index, patch))}
                onMove={(delta) => move(index, delta)}
                onRemove={() => {
                  onChange(removeStep(steps, index));
                  setAnnounce(`${stepName(step)} removed.`);
                }}
                onDragStart={() => setDragging(index)}
                onDragEnd={() => {
                  setDragging(null);
                  setOver(null);
                }}
              />
            </li>
          ))}
        </ol>
      ) : (
        <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600">
          No steps yet: add the first course, document or sign-off below.
        </p>
      )}
      {listError ? (
        <p className="text-sm text-danger-700" role="alert">
          {listError.join(' ')}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={() => add('course')}>
          Add a course
        </Button>
        <Button variant="secondary" size="sm" onClick={() => add('document')}>
          Add a document
        </Button>
        <Button variant="secondary" size="sm" onClick={() => add('sign_off')}>
          Add a sign-off
        </Button>
      </div>
    </div>
  );
}

function StepRow({
  step,
  index,
  count,
  errors,
  onChange,
  onMove,
  onRemove,
  onDragStart,
  onDragEnd,
}: {
  step: DraftStep;
  index: number;
  count: number;
  errors: FieldErrors;
  onChange: (patch: Partial<DraftStep>) => void;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
  onDragStart: () => void;
  onDragEnd: () => void;
}) {
  const name = stepName(step);
  const others = otherStepErrors(errors, step.type);
  return (
    <div className="space-y-3 p-3 sm:p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 items-center gap-2">
          <span
            draggable
            onDragStart={(e) => {
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', String(index));
              onDragStart();
            }}
            onDragEnd={onDragEnd}
            title="Drag to reorder"
            aria-hidden="true"
            className="cursor-grab rounded px-1 text-lg leading-none text-slate-500 select-none hover:bg-slate-100"
          >
            ⠿
          </span>
          <h3 className="text-sm font-semibold text-slate-900">
            Step {index + 1}: {STEP_TYPE[step.type]}
          </h3>
        </div>
        <div className="flex flex-wrap gap-1">
          <Button
            variant="ghost"
            size="sm"
            onClick={() => onMove(-1)}
            disabled={index === 0}
            aria-label={`Move step ${index + 1} up`}
          >
            Move up
          </Button>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => onMove(1)}
            disabled={index === count - 1}
            aria-label={`Move step ${index + 1} down`}
          >
            Move down
          </Button>
          <Button
            variant="ghost"
            size="sm"
            onClick={onRemove}
            aria-label={`Remove step ${index + 1}: ${name}`}
          >
            Remove
          </Button>
        </div>
      </div>
      {others.length ? <p className="text-sm text-danger-700">{others.join(' ')}</p> : null}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {step.type === 'course' ? (
          <div className="sm:col-span-2">
            <CoursePicker
              label="Course"
              value={step.course}
              onChange={(course) => onChange({ course })}
              placeholder="Type a course title"
              error={errors.course_id}
              required
            />
          </div>
        ) : null}
        {step.type === 'document' ? (
          <div className="sm:col-span-2">
            <DocumentChooser step={step} onChange={onChange} error={errors.document_id} />
          </div>
        ) : null}
        {step.type === 'sign_off' ? (
          <div className="sm:col-span-2">
            <TextField
              label="Competence to sign off"
              value={step.title}
              onChange={(e) => onChange({ title: e.target.value })}
              placeholder="e.g. Safe moving and handling observed"
              error={errors.title}
              maxLength={200}
              required
            />
          </div>
        ) : null}
        <div className="sm:col-span-2">
          <TextArea
            label={step.type === 'sign_off' ? 'What the signer confirms' : 'Note for the learner'}
            value={step.description}
            onChange={(e) => onChange({ description: e.target.value })}
            error={errors.description}
            maxLength={2000}
            className="min-h-16"
          />
        </div>
        <TextField
          label="Due in (days)"
          type="number"
          inputMode="numeric"
          min={0}
          max={3650}
          value={step.dueDays}
          onChange={(e) => onChange({ dueDays: e.target.value })}
          hint="Leave empty for no due date."
          error={errors.due_days}
        />
        <Select
          label="Counted from"
          value={step.dueFrom}
          onChange={(e) => onChange({ dueFrom: e.target.value as DraftStep['dueFrom'] })}
          options={[
            { value: 'allocation', label: 'When the pathway is given' },
            { value: 'start_date', label: "The person's start date" },
          ]}
          error={errors.due_from}
        />
      </div>
    </div>
  );
}

/** A document step's choice: a library first, then a document of it (GET /libraries, /libraries/{id}/documents). */
function DocumentChooser({
  step,
  onChange,
  error,
}: {
  step: DraftStep;
  onChange: (patch: Partial<DraftStep>) => void;
  error?: string[];
}) {
  const libraries = useQuery({
    queryKey: ['pathways', 'libraries'],
    queryFn: fetchLibraries,
    staleTime: 60_000,
  });
  const [libraryId, setLibraryId] = useState('');
  const chosen = Number(libraryId);
  if (libraries.isError)
    return (
      <p className="text-sm text-danger-700" role="alert">
        The libraries could not be loaded, so a document cannot be chosen here.
        {error ? ` ${error.join(' ')}` : ''}
      </p>
    );
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
      <Select
        label="Library"
        value={libraryId}
        onChange={(e) => setLibraryId(e.target.value)}
        placeholder={libraries.isLoading ? 'Loading…' : 'Choose a library'}
        options={(libraries.data ?? []).map((l) => ({ value: l.id, label: `${l.name} (${l.entity.name})` }))}
        hint={step.document && !chosen ? `Chosen: ${step.document.label}` : undefined}
      />
      <Picker
        label="Document"
        queryKey={`library-${chosen}`}
        search={(text) => (chosen ? searchDocuments(chosen, text) : Promise.resolve([]))}
        value={step.document}
        onChange={(document) => onChange({ document })}
        placeholder={chosen ? 'Type a document title' : 'Choose a library first'}
        disabled={!chosen}
        error={error}
        required
      />
    </div>
  );
}
