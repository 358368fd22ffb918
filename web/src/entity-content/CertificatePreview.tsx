/**
 * A live picture of the certificate's top and foot as server/src/certificates/pdf.ts draws them: an accent-coloured
 * double frame, the logo, the title in the accent colour, a sample learner and course, and the signatory line.
 */
export interface CertificatePreviewProps {
  title: string;
  accent: string;
  organisation: string;
  signatoryName: string;
  signatoryRole: string;
  logoUrl: string | null;
}

export const isHexColour = (v: string) => /^#[0-9a-fA-F]{6}$/.test(v);

export function CertificatePreview({
  title,
  accent,
  organisation,
  signatoryName,
  signatoryRole,
  logoUrl,
}: CertificatePreviewProps) {
  const colour = isHexColour(accent) ? accent : '#1f2937';
  return (
    <section aria-label="Certificate preview" data-testid="certificate-preview" className="space-y-2">
      <h2 className="text-sm font-semibold text-slate-700">Preview</h2>
      <div className="rounded-lg bg-white p-2 shadow-sm ring-1 ring-slate-200">
        <div className="p-1.5" style={{ border: `6px solid ${colour}` }}>
          <div className="space-y-2 px-3 py-5 text-center sm:px-6" style={{ border: `1px solid ${colour}` }}>
            {logoUrl ? (
              <img
                src={logoUrl}
                alt={`${organisation} logo`}
                className="mx-auto h-12 w-auto max-w-32 object-contain"
              />
            ) : null}
            <p
              className="text-xl font-bold break-words sm:text-2xl"
              style={{ color: colour }}
              data-testid="preview-title"
            >
              {title.trim() || 'Certificate of Completion'}
            </p>
            <p className="text-xs text-slate-700">This is to certify that</p>
            <p className="text-lg font-bold text-slate-900">Casey Lee</p>
            <p className="text-xs text-slate-700">has successfully completed</p>
            <p className="font-bold" style={{ color: colour }}>
              Infection Prevention and Control
            </p>
            {signatoryName.trim() ? (
              <div className="mx-auto mt-4 w-48 max-w-full border-t border-slate-400 pt-1">
                <p className="text-xs font-bold text-slate-900 break-words">{signatoryName}</p>
                {signatoryRole.trim() ? (
                  <p className="text-[11px] text-slate-600 break-words">{signatoryRole}</p>
                ) : null}
              </div>
            ) : null}
            <p className="pt-2 text-[10px] text-slate-600">{organisation} · Certificate reference</p>
          </div>
        </div>
      </div>
    </section>
  );
}
