import { useEffect, useId, useRef, useState } from 'react';

/** A search box that reports its value after the user pauses typing (default 300 ms). */
export function SearchInput({
  value,
  onSearch,
  label = 'Search',
  placeholder = 'Search…',
  delay = 300,
}: {
  value?: string;
  onSearch: (value: string) => void;
  label?: string;
  placeholder?: string;
  delay?: number;
}) {
  const id = useId();
  const [text, setText] = useState(value ?? '');
  const latest = useRef(onSearch);
  latest.current = onSearch;
  const first = useRef(true);

  useEffect(() => {
    if (value !== undefined) setText(value);
  }, [value]);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const t = setTimeout(() => latest.current(text.trim()), delay);
    return () => clearTimeout(t);
  }, [text, delay]);

  return (
    <div className="relative w-full sm:max-w-xs">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <svg
        viewBox="0 0 20 20"
        className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400"
        aria-hidden="true"
      >
        <circle cx="9" cy="9" r="6" stroke="currentColor" strokeWidth="2" fill="none" />
        <path d="M14 14l4 4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <input
        id={id}
        type="search"
        value={text}
        placeholder={placeholder}
        onChange={(e) => setText(e.target.value)}
        className="block h-10 w-full rounded-lg border border-slate-300 bg-white pr-3 pl-9 text-sm shadow-sm placeholder:text-slate-400 focus:border-primary-700 focus:ring-2 focus:ring-primary-300 focus:outline-none"
      />
    </div>
  );
}
