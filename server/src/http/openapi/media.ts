import {
  AddVersionFields,
  CreateDocumentFields,
  EvidenceFileFields,
  EvidenceResultBody,
  HistoricalResultBody,
  UpdateHistoricalResultBody,
  WHITELABEL_FILE_FIELDS,
  WhitelabelBody,
} from '@cc/contracts';
import { z } from 'zod';

/**
 * Routes whose answer or body is not (only) JSON, keyed by "METHOD /api/path" as the OpenAPI document writes it.
 * These routes read their files with request.parts() or answer with reply.send(stream), which no schema on the
 * route can say; this is where the document learns it. A route added later that answers a file belongs here too:
 * the document test cannot see a file behind a handler, only what is listed.
 */

const PDF = 'application/pdf';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const ZIP = 'application/zip';
const ANY = 'application/octet-stream';
const ICS = 'text/calendar';
const CSV = 'text/csv';

export interface FileAnswer {
  /** Content type → what the file holds (shown in Swagger UI instead of an example). */
  files: Record<string, string>;
  /** The route also answers JSON (the envelope) for some requests; the generated JSON answer stays. */
  alsoJson?: string;
}

export const FILE_ANSWERS: Record<string, FileAnswer> = {
  'GET /api/users/{id}/training-certificate': {
    files: {
      [PDF]: 'The training certificate of one result, e.g. "Moving and handling - Amara Okafor.pdf".',
    },
  },
  'GET /api/files/{uuid}': {
    files: { [ANY]: 'The stored file in its own type (a logo PNG, a content image).' },
  },
  'GET /api/mail/outbox/{id}/attachments/{attachmentId}': {
    files: {
      [ANY]: 'An attachment of an e-mail in the outbox, in its own type (an .ics invite, a PDF report).',
    },
  },
  'GET /api/results/{id}/evidence': {
    files: { [ANY]: 'The evidence file of a historical result (PDF or image), always as an attachment.' },
  },
  'POST /api/reports/matrix': {
    files: {
      [PDF]:
        'directFormat "file", format "pdf": the matrix as a landscape PDF, one page per block of courses.',
      [XLSX]:
        'directFormat "file", format "xlsx": one row per person, one column per course, expiry dates as dates. `view` (search, status, sort) picks and orders the people as the page does; the filters are named above the table.',
    },
    alsoJson:
      'directFormat "json" (the default): the matrix as JSON; emailFormat: 202, the file is e-mailed.',
  },
  'POST /api/entities/{slug}/asc-wds/exports': {
    files: {
      [CSV]:
        'The ASC-WDS bulk upload training file of the home (status 201; recorded as its latest export): LOCALESTID,UNIQUEWORKERID,CATEGORY,TRAININGNAME,ACCREDITED,WHODELIVERED,PROVIDERNAME,HOWDELIVERED,VALIDITY,DATECOMPLETED,EXPIRYDATE,NOTES, dates DD/MM/YYYY.',
    },
  },
  'POST /api/reports/role': {
    files: {
      [PDF]: 'format "pdf": the role report as PDF, its filters named in the header.',
      [XLSX]: 'format "xlsx": one row per role, its filters named above the table.',
    },
    alsoJson: 'without format: the rows as JSON.',
  },
  'GET /api/reports/compliance/export/{format}': {
    files: { [PDF]: 'The compliance report as PDF.', [XLSX]: 'The compliance report as a workbook.' },
  },
  'POST /api/reports/results': {
    files: { [XLSX]: 'type "xlsx": every matching result, one per row.' },
    alsoJson: 'type "json" (the default): one page of results.',
  },
  'POST /api/reports/staff': {
    files: { [PDF]: 'The staff list as PDF.', [XLSX]: 'The staff list as a workbook.' },
  },
  'POST /api/report': {
    files: {
      [PDF]: 'format "pdf": the preset report as PDF.',
      [XLSX]: 'format "xlsx": the preset report as a workbook.',
    },
    alsoJson: 'format "json": a page of certificate rows, or the matrix for report_type "matrix".',
  },
  'POST /api/results/certificate/download-multiple': {
    files: { [ZIP]: "A ZIP of the chosen results' certificates (PDF each). 204 when none of them has one." },
  },
  'GET /api/reports/care-certificate/export/{format}': {
    files: {
      [PDF]: 'The Care Certificate report as PDF.',
      [XLSX]: 'The Care Certificate report as a workbook.',
    },
  },
  'GET /api/care-certificates/{uuid}/pdf': {
    files: { [PDF]: 'The completed Care Certificate of one learner, all 16 standards signed off.' },
  },
  'GET /api/care-certificates/{uuid}/evidence/{id}/file': {
    files: { [ANY]: 'One evidence file of a Care Certificate (PDF or image), always as an attachment.' },
  },
  'GET /api/inspection-packs/{uuid}/{kind}': {
    files: {
      [PDF]: 'kind "pdf": the inspection summary.',
      [ZIP]: 'kind "zip": the summary with every certificate.',
    },
  },
  'GET /api/documents/{id}/versions/{number}/file': {
    files: { [ANY]: 'The file of one version of a policy document (PDF, Word, image) as it was uploaded.' },
  },
  'GET /api/tasks/{uuid}/download': {
    files: {
      [ANY]:
        "The finished task's file in its own type: an exported report (PDF, XLSX) or an inspection pack (ZIP).",
    },
  },
  'GET /api/calendar/{token}.ics': {
    files: {
      [ICS]: 'The personal calendar feed (iCalendar) of a trainer or delegate: every booked session.',
    },
  },
  'GET /api/training-sessions/{id}/calendar.ics': {
    files: { [ICS]: 'One training session as an iCalendar event, to add to Outlook or Google Calendar.' },
  },
};

export interface MultipartBody {
  /** The text fields (a zod object from the contracts). */
  fields: z.ZodObject;
  /** The file parts, by field name → what to send. */
  files: Record<string, string>;
  /** The same fields may be sent as JSON without a file (then validated by this schema). */
  json?: z.ZodType;
}

const imageFiles = Object.fromEntries(
  WHITELABEL_FILE_FIELDS.map((f) => [f, `The ${f} image (PNG, JPEG or SVG).`]),
);

/** Multipart bodies: the route reads them itself, so its schema names no body. */
export const MULTIPART_BODIES: Record<string, MultipartBody> = {
  'POST /api/results/historical/create': {
    fields: HistoricalResultBody,
    files: { evidence: 'Optional evidence: a PDF or image of the certificate.' },
    json: HistoricalResultBody,
  },
  'PATCH /api/results/historical/{id}': {
    fields: UpdateHistoricalResultBody,
    files: { evidence: 'Optional: a new evidence file replacing the current one.' },
    json: UpdateHistoricalResultBody,
  },
  'POST /api/care-certificates/{uuid}/evidence': {
    fields: EvidenceFileFields,
    files: { file: 'The evidence (PDF or image).' },
    json: EvidenceResultBody,
  },
  'POST /api/libraries/{id}/documents': {
    fields: CreateDocumentFields,
    files: { file: 'The policy document (PDF, Word, or image).' },
  },
  'POST /api/documents/{id}/versions': {
    fields: AddVersionFields,
    files: { file: 'The new version of the document.' },
  },
  'POST /api/entities/{id}/whitelabel': { fields: WhitelabelBody, files: imageFiles, json: WhitelabelBody },
  'PATCH /api/entities/{id}/whitelabel': { fields: WhitelabelBody, files: imageFiles, json: WhitelabelBody },
  'POST /api/content/images': {
    fields: z.object({}),
    files: { image: 'An image for course content (PNG or JPEG).' },
  },
  'POST /api/content/{id}/package': {
    fields: z.object({}),
    files: { package: 'A SCORM 1.2 or 2004 package (.zip with imsmanifest.xml).' },
  },
  'POST /api/h5ps/{id}/package': { fields: z.object({}), files: { package: 'An H5P package (.h5p).' } },
};
