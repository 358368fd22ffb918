import PDFDocument from 'pdfkit';
import { PDF_FONT, useUnicodeFonts } from '../pdf/fonts';

/** What the Care Certificate's PDF shows (pdf-service.ts gathers it). */
export interface CareCertificateFacts {
  personName: string;
  versionTitle: string;
  standards: { number: number; title: string }[];
  /** Formatted in the organisation's date format. */
  completedOn: string;
  /** Who assessed (observation assessors, or a historical certificate's assessor). */
  assessors: string[];
  /** Who approved the standards. */
  approvers: string[];
  /** Where a historical certificate was completed. */
  provider: string | null;
  organisationName: string;
  /** PNG or JPEG bytes of the organisation's logo, printed bottom right only. */
  logo: Buffer | null;
  reference: string;
}

const INK = '#111827';
const MUTED = '#4b5563';
const ACCENT = '#1d4ed8';

/**
 * The certificate, laid out as Skills for Care's template: landscape A4, the title "Care Certificate" (the
 * template's own Care Certificate logo is not ours to print, so its top right corner stays clear), the person's
 * name, the standards met listed by number and title, the completion date, the assessor and approver, and the
 * organisation's name with its logo in the bottom right corner, the only place the template gives an employer's
 * logo. Streamed; `compress: false` only for tests that read the text back.
 */
export function renderCareCertificate(facts: CareCertificateFacts, opts: { compress?: boolean } = {}) {
  const doc = useUnicodeFonts(
    new PDFDocument({
      size: 'A4',
      layout: 'landscape',
      margin: 40,
      compress: opts.compress ?? true,
      info: { Title: `Care Certificate: ${facts.personName}`, Author: facts.organisationName },
    }),
  );
  const { width, height } = doc.page;
  doc
    .lineWidth(6)
    .strokeColor(ACCENT)
    .rect(18, 18, width - 36, height - 36)
    .stroke();

  const left = 60;
  const inner = width - 2 * left;
  doc.fillColor(INK).font(PDF_FONT.bold).fontSize(30).text('Care Certificate', left, 70, { width: inner });
  doc.moveDown(0.3).fillColor(MUTED).font(PDF_FONT.regular).fontSize(13).text('This is to certify that');
  doc.moveDown(0.2).fillColor(INK).font(PDF_FONT.bold).fontSize(24).text(facts.personName, { width: inner });
  doc
    .moveDown(0.2)
    .fillColor(MUTED)
    .font(PDF_FONT.regular)
    .fontSize(12)
    .text(`has met the standards of the Care Certificate (${facts.versionTitle}):`, { width: inner });

  // The standards, in two columns.
  const top = doc.y + 8;
  const half = Math.ceil(facts.standards.length / 2);
  const colWidth = inner / 2 - 10;
  const lineHeight = facts.standards.length > 16 ? 15 : 17;
  doc.fontSize(facts.standards.length > 16 ? 9 : 10.5);
  facts.standards.forEach((s, i) => {
    const col = i < half ? 0 : 1;
    const row = col === 0 ? i : i - half;
    const x = left + col * (colWidth + 20);
    const y = top + row * lineHeight;
    doc.fillColor(ACCENT).font(PDF_FONT.bold).text(`${s.number}.`, x, y, { width: 22 });
    doc
      .fillColor(INK)
      .font(PDF_FONT.regular)
      .text(s.title, x + 24, y, { width: colWidth - 24, lineBreak: false, ellipsis: true });
  });
  let y = top + half * lineHeight + 14;

  const line = (label: string, value: string) => {
    doc.fillColor(MUTED).font(PDF_FONT.regular).fontSize(11).text(`${label}: `, left, y, { continued: true });
    doc
      .fillColor(INK)
      .font(PDF_FONT.bold)
      .text(value, { width: inner / 2 + 60 });
    y = doc.y + 4;
  };
  line('Completed on', facts.completedOn);
  if (facts.provider) line('Completed with', facts.provider);
  if (facts.assessors.length)
    line(facts.assessors.length > 1 ? 'Assessors' : 'Assessor', facts.assessors.join(', '));
  if (facts.approvers.length) line('Approved by', facts.approvers.join(', '));

  // The employer: name bottom left, logo bottom right (its only place on the template).
  const footY = height - 92;
  doc
    .fillColor(INK)
    .font(PDF_FONT.bold)
    .fontSize(13)
    .text(facts.organisationName, left, footY, { width: inner / 2 });
  doc
    .fillColor(MUTED)
    .font(PDF_FONT.regular)
    .fontSize(8)
    .text(`Reference ${facts.reference}`, left, footY + 20, { width: inner / 2 });
  if (facts.logo) {
    try {
      doc.image(facts.logo, width - 220, footY - 20, { fit: [170, 60], align: 'right', valign: 'bottom' });
    } catch {
      // An unreadable logo must not cost the person their certificate: print without it.
    }
  }
  doc.end();
  return doc;
}
