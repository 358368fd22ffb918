import { useId } from 'react';

/**
 * The Toggle widget of spec 1 §3: on/off, optional on/off labels, width 50 and height 20 by default, font
 * size 10, green when checked, and a disabled option. A native button with role=switch: Space and Enter
 * toggle it.
 */
export const TOGGLE_DEFAULTS = { width: 50, height: 20, fontSize: 10, checkedColour: '#2f855a' } as const;

export function Toggle({
  checked,
  onChange,
  label,
  labels,
  width = TOGGLE_DEFAULTS.width,
  height = TOGGLE_DEFAULTS.height,
  fontSize = TOGGLE_DEFAULTS.fontSize,
  disabled = false,
  hideLabel = false,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** The accessible name (shown beside the switch unless hideLabel). */
  label: string;
  /** Text inside the switch, e.g. { checked: 'On', unchecked: 'Off' }. */
  labels?: { checked: string; unchecked: string };
  width?: number;
  height?: number;
  fontSize?: number;
  disabled?: boolean;
  hideLabel?: boolean;
}) {
  const id = useId();
  const knob = height - 4;
  return (
    <div className="inline-flex items-center gap-2">
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        aria-label={hideLabel ? label : undefined}
        aria-labelledby={hideLabel ? undefined : `${id}-label`}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        className="focus-ring relative inline-flex shrink-0 items-center rounded-full transition-colors disabled:cursor-not-allowed disabled:opacity-50"
        style={{
          width,
          height,
          // slate-500: white on-off text keeps 4.5:1 contrast.
          backgroundColor: checked ? TOGGLE_DEFAULTS.checkedColour : '#64748b',
        }}
      >
        {labels ? (
          <span
            className="absolute font-semibold text-white uppercase select-none"
            style={{ fontSize, left: checked ? 6 : undefined, right: checked ? undefined : 5 }}
            aria-hidden="true"
          >
            {checked ? labels.checked : labels.unchecked}
          </span>
        ) : null}
        <span
          className="absolute rounded-full bg-white shadow transition-transform"
          style={{
            width: knob,
            height: knob,
            left: 2,
            transform: `translateX(${checked ? width - knob - 4 : 0}px)`,
          }}
          aria-hidden="true"
        />
      </button>
      {hideLabel ? null : (
        <span id={`${id}-label`} className="text-sm text-slate-800">
          {label}
        </span>
      )}
    </div>
  );
}
