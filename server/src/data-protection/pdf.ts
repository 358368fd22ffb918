import { type DateFormat, formatDate, formatDateTime, type PersonalDataExport } from '@cc/contracts';
import PDFDocument from 'pdfkit';
import { PDF_FONT, useUnicodeFonts } from '../pdf/fonts';

/** Section names in plain words, in the order the PDF shows them. */
const TITLES: Record<string, string> = {
  organisations: 'Organisation',
  permissions_granted: 'Permissions granted to them',
  tags: 'Groups (tags)',
  results: 'Training results',
  attempts: 'Course attempts',
  quiz_attempts: 'Quiz attempts',
  required_courses: 'Required courses',
  bookings: 'Training session bookings',
  booking_invites: 'Calendar invitations',
  care_certificates: 'Care Certificate',
  pathways: 'Pathways',
  documents_read: 'Documents read',
  documents_acknowledged: 'Documents acknowledged',
  feedback: 'Feedback given',
  messages_sent: 'Messages sent (when and to whom)',
  messages_received: 'Messages received (when and read)',
  notifications: 'Notifications',
  tasks: 'Downloads and tasks',
  help_requests: 'Help requests',
  report_presets: 'Saved reports',
  report_schedules: 'Scheduled reports',
  signups: 'Sign-ups',
  sign_in_events: 'Sign-ins',
  sessions: 'Signed-in browsers',
  devices: 'Known devices',
  access_tokens: 'Devices and access tokens',
  phones: 'Phones for notifications',
  calendar_feeds: 'Calendar feeds',
  account_links: 'Account e-mails (password, address)',
  history: 'Changes recorded about them',
};

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A stored value in the reader's words: dates in the organisation's format, objects as short JSON. */
function shown(value: unknown, f: DateFormat): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') {
    if (TIMESTAMP.test(value)) return formatDateTime(value, f);
    if (DAY.test(value)) return formatDate(value, f);
    return value;
  }
  if (typeof value === 'object') {
    const json = JSON.stringify(value);
    return json === '{}' || json === '[]' ? '—' : json;
  }
  return String(value);
}

const words = (key: string) => {
  const s = key.replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
};

/**
 * The subject access export as a readable PDF (issue 35 §4): the person's details, then each kind of record with
 * every row as "field: value" lines. Embedded fonts (pdf/fonts.ts) so any name prints.
 */
export async function renderPersonalDataPdf(data: PersonalDataExport, f: DateFormat): Promise<Buffer> {
  const name = String(data.person.name ?? '');
  const doc = useUnicodeFonts(
    new PDFDocument({
      size: 'A4',
      margin: 48,
      info: { Title: `Personal data · ${name}`, CreationDate: new Date(data.generated_at) },
    }),
  );
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  const W = doc.page.width - 96;
  const bottom = () => doc.page.height - 60;

  doc.font(PDF_FONT.bold).fontSize(18).fillColor('#111827').text(`Personal data of ${name}`, { width: W });
  doc
    .moveDown(0.3)
    .font(PDF_FONT.regular)
    .fontSize(9)
    .fillColor('#4b5563')
    .text(
      `Everything the training record system holds about this person, as of ${formatDateTime(data.generated_at, f)}. ` +
        'Passwords, session keys and device secrets are never shown.',
      { width: W },
    );

  const heading = (text: string) => {
    if (doc.y > bottom() - 60) doc.addPage();
    doc
      .moveDown(0.8)
      .font(PDF_FONT.bold)
      .fontSize(13)
      .fillColor('#111827')
      .text(text, 48, undefined, { width: W });
    doc.moveDown(0.2);
  };
  const fields = (row: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(row)) {
      if (doc.y > bottom()) doc.addPage();
      doc
        .font(PDF_FONT.bold)
        .fontSize(8.5)
        .fillColor('#374151')
        .text(`${words(k)}: `, 48, undefined, { continued: true, width: W })
        .font(PDF_FONT.regular)
        .fillColor('#111827')
        .text(shown(v, f), { width: W });
    }
  };

  heading('Their details');
  fields(data.person);
  const order = [...Object.keys(TITLES), ...Object.keys(data.sections).filter((k) => !(k in TITLES))];
  for (const key of order) {
    const rows = data.sections[key];
    if (!rows) continue;
    heading(`${TITLES[key] ?? words(key)} (${rows.length})`);
    if (rows.length === 0) {
      doc.font(PDF_FONT.regular).fontSize(9).fillColor('#6b7280').text('None.', 48, undefined, { width: W });
      continue;
    }
    rows.forEach((row, i) => {
      if (i > 0) doc.moveDown(0.4);
      fields(row);
    });
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
