import type { CSSProperties } from 'react';
import { type BrandingText, isHex, previewVariables, scoreBand } from './branding-form';

const SAMPLE_SCORES = [96, 78, 41];

/**
 * The live preview (spec 2 §3, §9): the edited colours expanded to shades 100–900 with the theme maths and set
 * as --cc-* variables on this panel only, so the mock header, buttons and score badges use them before saving.
 */
export function BrandingPreview({ form, logo }: { form: BrandingText; logo: string | null }) {
  const vars = previewVariables(form) as CSSProperties;
  const green = Number(form.greenScoreBandLowerMargin) || 0;
  const amber = Number(form.amberScoreBandLowerMargin) || 0;
  const light = (band: 'green' | 'amber' | 'red') => {
    const value =
      band === 'green'
        ? form.trafficLightOk
        : band === 'amber'
          ? form.trafficLightWarning
          : form.trafficLightDanger;
    return isHex(value) ? value : '#94a3b8';
  };
  return (
    <section
      aria-label="Live preview"
      className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200"
      style={vars}
      data-testid="branding-preview"
    >
      <div className="flex items-center justify-between gap-3 bg-primary-700 px-4 py-3 text-on-primary-700">
        <span className="flex min-w-0 items-center gap-2">
          {logo ? (
            <img src={logo} alt="" className="h-7 w-auto max-w-28 rounded bg-white object-contain p-0.5" />
          ) : null}
          <span className="truncate text-sm font-semibold">{form.companyName || 'Your organisation'}</span>
        </span>
        <span className="rounded-full bg-primary-100 px-2 py-0.5 text-xs font-medium text-primary-900">
          {form.entityAltName || 'Entity'}
        </span>
      </div>
      <div className="space-y-4 p-4">
        <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Preview</p>
        <div className="flex flex-wrap gap-2">
          <span className="inline-flex h-9 items-center rounded-lg bg-primary-700 px-3 text-sm font-medium text-on-primary-700">
            Primary
          </span>
          <span className="inline-flex h-9 items-center rounded-lg bg-primary-100 px-3 text-sm font-medium text-primary-900">
            Soft
          </span>
          <span
            className="inline-flex h-9 items-center rounded-lg px-3 text-sm font-medium"
            style={{ background: 'var(--cc-accent-500)', color: 'var(--cc-accent-500-text)' }}
          >
            Accent
          </span>
          <span className="inline-flex h-9 items-center rounded-lg bg-danger-700 px-3 text-sm font-medium text-on-danger-700">
            Delete
          </span>
        </div>
        <div className="flex flex-wrap gap-2 text-xs">
          <span className="rounded-full bg-success-100 px-2 py-0.5 font-medium text-success-800">
            Completed
          </span>
          <span className="rounded-full bg-warning-100 px-2 py-0.5 font-medium text-warning-800">
            Expiring
          </span>
          <span className="rounded-full bg-danger-100 px-2 py-0.5 font-medium text-danger-800">Overdue</span>
        </div>
        <div>
          <p className="mb-1.5 text-xs text-slate-600">Compliance scores</p>
          <ul className="flex flex-wrap gap-2">
            {SAMPLE_SCORES.map((s) => {
              const band = scoreBand(s, green, amber);
              return (
                <li
                  key={s}
                  className="flex items-center gap-1.5 rounded-lg bg-slate-50 px-2 py-1 text-sm text-slate-800 ring-1 ring-slate-200"
                  data-band={band}
                >
                  <span
                    className="h-3 w-3 rounded-full"
                    style={{ background: light(band) }}
                    aria-hidden="true"
                  />
                  {s}% <span className="text-xs text-slate-500">({band})</span>
                </li>
              );
            })}
          </ul>
        </div>
        <div
          className="grid grid-cols-9 overflow-hidden rounded"
          aria-label="Primary shades 100 to 900"
          role="img"
        >
          {[100, 200, 300, 400, 500, 600, 700, 800, 900].map((shade) => (
            <span key={shade} className="h-5" style={{ background: `var(--cc-primary-${shade})` }} />
          ))}
        </div>
        <p className="text-xs text-slate-600">
          {form.primaryComplianceAltName || 'Mandatory'} / {form.secondaryComplianceAltName || 'Required'} ·{' '}
          {form.certificateGroupMenuName || 'Care Certificate'}
        </p>
      </div>
    </section>
  );
}
