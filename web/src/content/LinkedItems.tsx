import { useId, useState } from 'react';
import { Link } from 'react-router';
import { api, type Envelope } from '../app/api';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope } from '../entities/shared';
import { Button, Card, Select } from '../ui';
import { move } from './logic';

export interface LinkedRef {
  id: number;
  title: string;
  position?: number;
}

/**
 * The lessons or quizzes of a content, or the topics of a lesson (spec 2 §4): add an existing item, remove
 * one, or move one up or down. Each change is one POST {action, <field>|ids} to `endpoint`; the server answers
 * with the new list and the spec's text ('Lesson has been added.' …).
 */
export function LinkedItems({
  title,
  noun,
  endpoint,
  field,
  items,
  options,
  editPath,
  onChange,
}: {
  title: string;
  /** 'lesson', 'quiz', 'topic'. */
  noun: string;
  endpoint: string;
  field: 'lesson_id' | 'quiz_id' | 'topic_id';
  items: LinkedRef[];
  options: { id: number; title: string }[] | undefined;
  editPath: (id: number) => string;
  onChange: (items: LinkedRef[]) => void;
}) {
  const selectId = useId();
  const [choice, setChoice] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const attached = new Set(items.map((i) => i.id));
  const available = (options ?? []).filter((o) => !attached.has(o.id));

  const run = async (tag: string, body: Record<string, unknown>) => {
    setBusy(tag);
    try {
      const res = await api.post<Envelope<LinkedRef[]>>(endpoint, body);
      onChange(res.data.data);
      if (res.data.message) notifySuccess(res.data.message);
      return true;
    } catch (error) {
      notifyError(errorEnvelope(error, 'Something went wrong please try again or contact support.'), '');
      return false;
    } finally {
      setBusy(null);
    }
  };
  const reorder = (index: number, delta: -1 | 1) =>
    run(`order-${index}-${delta}`, { action: 'order', ids: move(items, index, delta).map((i) => i.id) });

  return (
    <Card title={title}>
      {items.length ? (
        <ol className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
          {items.map((item, index) => (
            <li
              key={item.id}
              className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <span className="flex min-w-0 items-center gap-3">
                <span className="w-6 shrink-0 text-right text-sm text-slate-500" aria-hidden="true">
                  {index + 1}.
                </span>
                <Link
                  to={editPath(item.id)}
                  className="focus-ring rounded text-sm font-medium break-words text-primary-800 hover:underline"
                >
                  {item.title}
                </Link>
              </span>
              <span className="flex shrink-0 gap-1 self-end sm:self-auto">
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Move ${item.title} up`}
                  disabled={index === 0 || busy !== null}
                  loading={busy === `order-${index}--1`}
                  onClick={() => void reorder(index, -1)}
                >
                  Up
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Move ${item.title} down`}
                  disabled={index === items.length - 1 || busy !== null}
                  loading={busy === `order-${index}-1`}
                  onClick={() => void reorder(index, 1)}
                >
                  Down
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label={`Remove ${item.title}`}
                  disabled={busy !== null}
                  loading={busy === `remove-${item.id}`}
                  onClick={() => void run(`remove-${item.id}`, { action: 'remove', [field]: item.id })}
                >
                  Remove
                </Button>
              </span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-sm text-slate-600">No {noun}s attached yet.</p>
      )}
      <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <Select
            id={selectId}
            label={`Add a ${noun}`}
            value={choice}
            onChange={(e) => setChoice(e.target.value)}
            placeholder={
              options === undefined ? 'Loading…' : available.length ? `Choose a ${noun}` : `No other ${noun}s`
            }
            options={available.map((o) => ({ value: o.id, label: o.title }))}
          />
        </div>
        <Button
          variant="secondary"
          disabled={!choice || busy !== null}
          loading={busy === 'add'}
          onClick={async () => {
            if (await run('add', { action: 'add', [field]: Number(choice) })) setChoice('');
          }}
        >
          Add {noun}
        </Button>
      </div>
    </Card>
  );
}
