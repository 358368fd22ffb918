import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions, Field, Label } from '@headlessui/react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { cx } from '../ui';
import { searchCourses, searchUsers } from './api';

export interface PickItem {
  id: number;
  label: string;
  hint?: string;
}

export interface PickerProps {
  label: string;
  value: PickItem | null;
  onChange: (item: PickItem | null) => void;
  search: (text: string) => Promise<PickItem[]>;
  queryKey: string;
  placeholder?: string;
  error?: string[] | string | null;
  required?: boolean;
  hint?: string;
  disabled?: boolean;
  /** For adding to a list: the input empties after each choice. */
  clearOnSelect?: boolean;
}

/**
 * A searchable picker (combobox) whose options come from the server: `search(text)` is called after the user
 * pauses typing, so lists of thousands of users or courses never load into the page. Keyboard: type, arrows,
 * Enter; Escape closes. The chosen item shows in the input.
 */
export function Picker({
  label,
  value,
  onChange,
  search,
  queryKey,
  placeholder = 'Type to search…',
  error,
  required,
  hint,
  disabled,
  clearOnSelect = false,
}: PickerProps) {
  const [text, setText] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setDebounced(text.trim()), 250);
    return () => clearTimeout(t);
  }, [text]);
  const results = useQuery({
    queryKey: ['picker', queryKey, debounced],
    queryFn: () => search(debounced),
    placeholderData: (previous) => previous,
    staleTime: 30_000,
  });
  const errorId = useId();
  const hintId = useId();
  const err = Array.isArray(error) ? error.join(' ') : error;
  const describedBy = [hint ? hintId : null, err ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    <Field className="space-y-1.5" disabled={disabled}>
      <Label className="block text-sm font-medium text-slate-800">
        {label}
        {required ? (
          <span className="text-danger-700" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </Label>
      <Combobox
        value={value}
        by="id"
        onChange={(item: PickItem | null) => {
          onChange(item);
          if (clearOnSelect) setText('');
        }}
        onClose={() => setText('')}
      >
        <div className="relative">
          <ComboboxInput
            className={cx(
              'block h-10 w-full rounded-lg border bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-500',
              'focus:border-primary-700 focus:ring-2 focus:ring-primary-300 focus:outline-none',
              err ? 'border-danger-600' : 'border-slate-300',
            )}
            displayValue={(item: PickItem | null) => (clearOnSelect ? '' : (item?.label ?? ''))}
            onChange={(e) => setText(e.target.value)}
            placeholder={placeholder}
            aria-invalid={err ? true : undefined}
            aria-describedby={describedBy}
            autoComplete="off"
          />
          <ComboboxOptions
            anchor="bottom start"
            className="z-[120] max-h-72 w-[var(--input-width)] overflow-auto rounded-lg bg-white py-1 text-sm shadow-lg ring-1 ring-slate-200 empty:invisible"
          >
            {results.isLoading ? (
              <div className="px-3 py-2 text-slate-600">Searching…</div>
            ) : results.isError ? (
              <div className="px-3 py-2 text-danger-700">Search failed. Please try again.</div>
            ) : results.data?.length ? (
              results.data.map((item) => (
                <ComboboxOption
                  key={item.id}
                  value={item}
                  className="cursor-pointer px-3 py-2 data-[focus]:bg-primary-100 data-[selected]:font-semibold"
                >
                  <span className="block text-slate-900">{item.label}</span>
                  {item.hint ? <span className="block text-xs text-slate-600">{item.hint}</span> : null}
                </ComboboxOption>
              ))
            ) : (
              <div className="px-3 py-2 text-slate-600">No matches.</div>
            )}
          </ComboboxOptions>
        </div>
      </Combobox>
      {hint ? (
        <p id={hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {err ? (
        <p id={errorId} className="text-sm text-danger-700">
          {err}
        </p>
      ) : null}
    </Field>
  );
}

type FixedPickerProps = Omit<PickerProps, 'search' | 'queryKey' | 'label'> & { label?: string };

/** A Picker over the users the caller may see (label "User" unless given). */
export const UserPicker = (props: FixedPickerProps) => (
  <Picker label="User" {...props} queryKey="users" search={searchUsers} />
);

/** A Picker over the courses the caller may use (label "Course" unless given). */
export const CoursePicker = (props: FixedPickerProps) => (
  <Picker label="Course" {...props} queryKey="courses" search={searchCourses} />
);

/** The courses the caller may record for themselves (GET /results/courses?self=1: no 24/25/26/35 needed). */
export const SelfCoursePicker = (props: FixedPickerProps) => (
  <Picker label="Course" {...props} queryKey="self-courses" search={(q) => searchCourses(q, true)} />
);
