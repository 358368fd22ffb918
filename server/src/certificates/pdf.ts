import PDFDocument from 'pdfkit';
import { PDF_FONT, useUnicodeFonts } from '../pdf/fonts';

export interface CertificateFacts {
  title: string;
  accentColour: string;
  organisationName: string;
  learnerName: string;
  courseTitle: string;
  /** DD-MM-YYYY */
  completedOn: string;
  resultType: string;
  score: number | null;
  expiresOn: string | null;
  cpdAccredited: boolean;
  signatoryName: string | null;
  signatoryRole: string | null;
  reference: string;
  /** PNG or JPEG bytes (pdfkit reads both). */
  logo: Buffer | null;
}

const RESULT_LABELS: Record<string, string> = {
  elearning: 'E-learning',
  scorm: 'E-learning (SCORM)',
  historical: 'Historical record',
  face2face: 'Face-to-face training',
  exempt: 'Exemption',
  assessment: 'Assessment',
  pathway: 'Pathway',
  document: 'Document read',
};

/**
 * A one-page landscape A4 certificate drawn with pdfkit (issue 4 item 4). Returns the document as a stream: the
 * caller pipes it to the response, so nothing is buffered. `compress: false` only for tests that read the text.
 */
export function renderCertificate(facts: CertificateFacts, opts: { compress?: boolean } = {}) {
  const doc = useUnicodeFonts(
    new PDFDocument({
      size: 'A4',
      layout: 'landscape',
      margin: 50,
      compress: opts.compress ?? true,
      info: {
        Title: `${facts.title}: ${facts.courseTitle}`,
        Author: facts.organisationName,
        Subject: facts.learnerName,
      },
    }),
  );
  const { width, height } = doc.page;
  const accent = facts.accentColour;

  doc
    .lineWidth(8)
    .strokeColor(accent)
    .rect(20, 20, width - 40, height - 40)
    .stroke();
  doc
    .lineWidth(1)
    .rect(34, 34, width - 68, height - 68)
    .stroke();

  let y = 70;
  if (facts.logo) {
    try {
      doc.image(facts.logo, width / 2 - 60, y, { fit: [120, 60], align: 'center' });
      y += 70;
    } catch {
      // An unreadable image must not cost the learner their certificate: print without it.
    }
  }
  const centred = { align: 'center' as const, width: width - 140 };
  doc.fillColor(accent).font(PDF_FONT.bold).fontSize(32).text(facts.title, 70, y, centred);
  doc
    .moveDown(0.6)
    .fillColor('#374151')
    .font(PDF_FONT.regular)
    .fontSize(14)
    .text('This is to certify that', centred);
  doc.moveDown(0.5).fillColor('#111827').font(PDF_FONT.bold).fontSize(28).text(facts.learnerName, centred);
  doc
    .moveDown(0.5)
    .fillColor('#374151')
    .font(PDF_FONT.regular)
    .fontSize(14)
    .text('has successfully completed', centred);
  doc.moveDown(0.5).fillColor(accent).font(PDF_FONT.bold).fontSize(22).text(facts.courseTitle, centred);
  const details = [
    `Completed on ${facts.completedOn}`,
    RESULT_LABELS[facts.resultType] ?? facts.resultType,
    facts.score !== null ? `Score ${facts.score}%` : null,
    facts.expiresOn ? `Valid until ${facts.expiresOn}` : null,
    facts.cpdAccredited ? 'CPD accredited' : null,
  ].filter(Boolean);
  doc
    .moveDown(0.8)
    .fillColor('#374151')
    .font(PDF_FONT.regular)
    .fontSize(12)
    .text(details.join('  |  '), centred);

  const footY = height - 130;
  if (facts.signatoryName) {
    doc
      .lineWidth(1)
      .strokeColor('#9ca3af')
      .moveTo(width / 2 - 110, footY)
      .lineTo(width / 2 + 110, footY)
      .stroke();
    doc
      .fillColor('#111827')
      .font(PDF_FONT.bold)
      .fontSize(12)
      .text(facts.signatoryName, 70, footY + 8, centred);
    if (facts.signatoryRole)
      doc.font(PDF_FONT.regular).fontSize(10).fillColor('#4b5563').text(facts.signatoryRole, centred);
  }
  doc
    .fillColor('#6b7280')
    .font(PDF_FONT.regular)
    .fontSize(9)
    .text(`${facts.organisationName}  ·  Certificate ${facts.reference}`, 70, height - 70, centred);
  doc.end();
  return doc;
}
